#!/bin/sh
# Records the real-trace fixtures of this directory (see README.md). Run as root on the machine
# to trace, from this directory: ./record.sh. Each recording lasts well under a second.
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

# record NAME COMMAND...: tracefs events around COMMAND, saved as the tracefs trace file
# (NAME.ftrace.txt) and, from the same buffer, as `trace-cmd report` (NAME.trace-cmd.txt).
record() {
  name=$1; shift
  echo 0 > $T/tracing_on
  echo > $T/set_event
  echo 2048 > $T/buffer_size_kb
  echo > $T/trace
  for e in $EVENTS; do echo $e >> $T/set_event; done
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

# two processes ping-pong over pipes
record pipe perf bench sched pipe -l 200
# three CPU-bound shell loops on two CPUs: the scheduler shares the CPUs by preemption
record spin sh -c 'for i in 1 2 3; do (n=0; while [ $n -lt 60000 ]; do n=$((n+1)); done) & done; wait'
rm spin.ftrace.txt # the same events as spin.trace-cmd.txt; kept out to stay small

# perf sched record: hackbench, 2 groups of 4 senders and 4 receivers (processes), 20 loops
perf sched record -q -o /tmp/hackbench.data -- hackbench -g 2 -f 4 -l 20 > /dev/null 2>&1
perf sched script -i /tmp/hackbench.data > hackbench.perf.txt 2> /dev/null
rm -f /tmp/hackbench.data
