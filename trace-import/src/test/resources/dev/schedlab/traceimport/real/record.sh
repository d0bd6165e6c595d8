#!/bin/sh
# Records the real-trace fixtures of this directory (see README.md). Run as root on the machine
# to trace, from this directory: ./record.sh [pipe] [spin] [hackbench] (default: all three).
# Each recording lasts about a second at most.
set -eu
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T

EVENTS="sched:sched_switch sched:sched_waking sched:sched_wakeup sched:sched_wakeup_new
  sched:sched_process_fork sched:sched_process_exit sched:sched_migrate_task
  irq:irq_handler_entry irq:irq_handler_exit irq:softirq_entry irq:softirq_exit
  ipi:ipi_send_cpu ipi:ipi_send_cpumask
  irq_vectors:local_timer_entry irq_vectors:local_timer_exit
  irq_vectors:reschedule_entry irq_vectors:reschedule_exit
  irq_vectors:call_function_entry irq_vectors:call_function_exit
  irq_vectors:call_function_single_entry irq_vectors:call_function_single_exit"

# autogroups NAME: each thread's autogroup (/proc/PID/autogroup of its process) as the trace
# starts, one "TID N" line per thread of an autogroup-N (the root task group's threads, kernel
# threads and init's session, have none and are left out); the tasks forked during the trace are
# in their parent's (sched_autogroup_fork()), which the importer follows from the fork events
autogroups() {
  {
    echo "# tid autogroup, from /proc/PID/autogroup when the recording of $1 started"
    for d in /proc/[0-9]*; do
      g=$(cat "$d/autogroup" 2> /dev/null) || continue
      g=${g%% *}
      g=${g#/autogroup-}
      [ -n "$g" ] || continue
      for t in "$d"/task/[0-9]*; do
        [ -e "$t" ] && echo "${t##*/} $g"
      done
    done
  } > "$1.autogroups.txt"
}

# record NAME COMMAND...: tracefs events around COMMAND, saved as the tracefs trace file
# (NAME.ftrace.txt) and, from the same buffer, as `trace-cmd report` (NAME.trace-cmd.txt).
record() {
  name=$1; shift
  echo 0 > $T/tracing_on
  echo > $T/set_event
  echo 2048 > $T/buffer_size_kb
  echo > $T/trace
  for e in $EVENTS; do echo $e >> $T/set_event; done
  autogroups "$name"
  echo 1 > $T/tracing_on
  "$@" > /dev/null
  echo 0 > $T/tracing_on
  cat $T/trace > $name.ftrace.txt
  # trace-cmd record needs /proc/sys/kernel/ftrace_enabled writable; extract reads the buffers
  trace-cmd extract -o /tmp/$name.dat > /dev/null 2>&1
  trace-cmd report -i /tmp/$name.dat > $name.trace-cmd.txt 2> /dev/null
  rm -f /tmp/$name.dat
  echo > $T/set_event
}

WANT="$*"
want() {
  [ -z "$WANT" ] && return 0
  case " $WANT " in *" $1 "*) return 0 ;; esac
  return 1
}

# two processes ping-pong over pipes
if want pipe; then
  record pipe perf bench sched pipe -l 200
fi
# three CPU-bound shell loops on two CPUs: the scheduler shares the CPUs by preemption
if want spin; then
  record spin sh -c 'for i in 1 2 3; do (n=0; while [ $n -lt 60000 ]; do n=$((n+1)); done) & done; wait'
  rm spin.ftrace.txt # the same events as spin.trace-cmd.txt; kept out to stay small
fi
# perf sched record: hackbench, 2 groups of 4 senders and 4 receivers (processes), 20 loops
if want hackbench; then
  perf sched record -q -o /tmp/hackbench.data -- hackbench -g 2 -f 4 -l 20 > /dev/null 2>&1
  perf sched script -i /tmp/hackbench.data > hackbench.perf.txt 2> /dev/null
  rm -f /tmp/hackbench.data
fi
