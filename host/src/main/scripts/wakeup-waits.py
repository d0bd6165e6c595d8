#!/usr/bin/env python3
"""Where a cyclictest thread woken by its timer waits on a real kernel, beside a CPU hog.

Records, through tracefs (root), the timer interrupt, the hrtimer expiry, the softirqs, the
wakeup, the switch to the woken thread (with a stack trace: where the previous task gave up the
CPU) and the thread's return from clock_nanosleep(), while `stress-ng ARGS` and cyclictest run,
then splits each wakeup of a thread on the CPU whose hog it interrupted into:

  timer late     the hrtimer's expiry (its `expires`) to hrtimer_expire_entry
  irq tail       sched_waking to local_timer_exit (the rest of the timer interrupt)
  wait           local_timer_exit to sched_switch: softirqs at the interrupt's exit, then the
                 hog's run to its next preemption point (cond_resched(), exit to user space)
  return         sched_switch to the thread's return from clock_nanosleep()

and histograms the wait by the point that ended it (the caller of __schedule()).

  wakeup-waits.py [--prio 95] [--seconds 5] [--out trace.txt] -- --mmap 0
  wakeup-waits.py --parse trace.txt           # analyse a recorded trace again

--prio 0 runs cyclictest SCHED_OTHER. ftrace prints microseconds: the stages are whole us.
"""

import argparse
import collections
import re
import subprocess
import sys
import time

T = "/sys/kernel/tracing"
EVENTS = [
    "irq_vectors/local_timer_entry", "irq_vectors/local_timer_exit",
    "timer/hrtimer_expire_entry", "timer/hrtimer_start", "irq/softirq_entry",
    "irq/softirq_exit", "sched/sched_waking", "sched/sched_switch",
    "syscalls/sys_exit_clock_nanosleep",
]
SWITCH_TRIGGER = 'stacktrace if next_comm == "cyclictest"'
LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+):\s+(\S+?):?\s+(.*)$")


def put(path, text):
    with open(f"{T}/{path}", "w") as f:
        f.write(text)


def record(args):
    put("tracing_on", "0")
    put("trace", "")
    put("buffer_size_kb", "30000")
    for e in EVENTS:
        put(f"events/{e}/enable", "1")
    for e in ("timer/hrtimer_start", "syscalls/sys_exit_clock_nanosleep"):
        put(f"events/{e}/filter", 'comm == "cyclictest"')
    put("events/sched/sched_switch/trigger", SWITCH_TRIGGER)
    hog = subprocess.Popen(
        ["stress-ng", *args.stress, "-t", str(args.seconds + 4)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        put("tracing_on", "1")
        prio = ["-p", str(args.prio)] if args.prio > 0 else []
        subprocess.run(
            ["cyclictest", "-m", *prio, "-i", "1000", "-t", "-q", "-D", str(args.seconds)],
            check=True, stdout=subprocess.DEVNULL)
        put("tracing_on", "0")
    finally:
        hog.wait()
        put("events/sched/sched_switch/trigger", "!" + SWITCH_TRIGGER)
        for e in ("timer/hrtimer_start", "syscalls/sys_exit_clock_nanosleep"):
            put(f"events/{e}/filter", "0")
        for e in EVENTS:
            put(f"events/{e}/enable", "0")
    with open(f"{T}/trace") as src, open(args.out, "w") as dst:
        dst.write(src.read())
    put("trace", "")


def stack(lines, i):
    """The stack-trace lines that follow line i (the kernel prints them on their own)."""
    st = []
    while i < len(lines) and (lines[i].startswith(" => ") or "<stack trace>" in lines[i]):
        if lines[i].startswith(" => "):
            st.append(lines[i][4:].split("+")[0].strip())
        i += 1
    return st, i


def point(st):
    """The preemption point: the caller of __schedule()."""
    skip = {"trace_event_raw_event_sched_switch", "__traceiter_sched_switch", "__schedule",
            "schedule"}
    fr = [f for f in st if f not in skip]
    if not fr:
        return "?"
    if fr[0] == "__cond_resched" and len(fr) > 1:
        return "cond_resched() in " + fr[1]
    return {"irqentry_exit_to_user_mode": "exit to user (interrupt, fault)",
            "exit_to_user_mode_loop": "exit to user (syscall)"}.get(fr[0], fr[0])


def wakeups(path):
    lines = open(path, errors="replace").read().split("\n")
    expires, pend, entry, exit_, out = {}, {}, {}, {}, []
    i = 0
    while i < len(lines):
        m = LINE.match(lines[i])
        i += 1
        if not m:
            continue
        comm, pid, cpu, _flags, ts, ev, args = m.groups()
        pid, cpu, ts = int(pid), int(cpu), float(ts) * 1e6
        if ev == "hrtimer_start" and "hrtimer_wakeup" in args:
            expires[pid] = int(re.search(r" expires=(\d+)", args).group(1))
        elif ev == "hrtimer_expire_entry" and "hrtimer_wakeup" in args:
            entry[cpu] = (ts, int(re.search(r"now=(\d+)", args).group(1)))
        elif ev == "sched_waking" and "comm=cyclictest" in args:
            a = dict(re.findall(r"(\w+)=(\S+)", args))
            wpid = int(a["pid"])
            if int(a["target_cpu"]) == cpu and wpid in expires and cpu in entry:
                pend[cpu] = dict(pid=wpid, late=(entry[cpu][1] - expires[wpid]) / 1e3, wake=ts,
                                 hog=comm, softirq=collections.Counter(), sirq_at=None)
        elif cpu in pend:
            p = pend[cpu]
            if ev == "local_timer_exit" and "exit" not in p:
                p["exit"] = ts
            elif ev == "softirq_entry" and "exit" in p:
                p["sirq_at"] = (re.search(r"action=(\w+)", args).group(1), ts)
            elif ev == "softirq_exit" and p["sirq_at"]:
                p["softirq"][p["sirq_at"][0]] += ts - p["sirq_at"][1]
                p["sirq_at"] = None
            elif ev == "sched_switch" and f"next_pid={p['pid']} " in args + " ":
                st, i = stack(lines, i)
                p.update(switch=ts, prev=re.search(r"prev_comm=(.+?) prev_pid", args).group(1),
                         point=point(st))
                exit_[p["pid"]] = p
                del pend[cpu]
        if ev == "sys_clock_nanosleep" and pid in exit_:
            p = exit_.pop(pid)
            p["ret"] = ts
            if "exit" in p:
                out.append(p)
    return out


def q(v, f):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * f))] if v else float("nan")


def report(path):
    by_prev = collections.defaultdict(list)
    for w in wakeups(path):
        by_prev[w["prev"]].append(w)
    for prev, ws in sorted(by_prev.items(), key=lambda kv: -len(kv[1])):
        if len(ws) < 50:
            continue
        wait = [w["switch"] - w["exit"] for w in ws]
        print(f"previous task {prev}: {len(ws)} wakeups; p50 / p90 / p99 in us")
        for name, v in (("timer late", [w["late"] for w in ws]),
                        ("irq tail", [w["exit"] - w["wake"] for w in ws]),
                        ("wait", wait),
                        ("return", [w["ret"] - w["switch"] for w in ws])):
            print(f"  {name:10s} {q(v, .5):6.1f} {q(v, .9):6.1f} {q(v, .99):7.1f}")
        for s in ("RCU", "TIMER", "SCHED", "NET_RX", "BLOCK"):
            t = [w["softirq"][s] for w in ws if s in w["softirq"]]
            if t:
                print(f"  {s} softirq in the wait: {len(t)} wakeups ({100 * len(t) / len(ws):.1f} %),"
                      f" {q(t, .5):.0f} / {q(t, .9):.0f} / {max(t):.0f} us (p50 / p90 / max)")
        pts = collections.defaultdict(list)
        for w in ws:
            pts[w["point"]].append(w["switch"] - w["exit"] - sum(w["softirq"].values()))
        print("  wait less softirqs, by the point that ended it:")
        for p, v in sorted(pts.items(), key=lambda kv: -len(kv[1]))[:10]:
            print(f"    {p:45s} {100 * len(v) / len(ws):5.1f} %  {q(v, .5):5.1f} {q(v, .9):5.1f}"
                  f" {q(v, .99):6.1f}  max {max(v):.0f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prio", type=int, default=95)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--out", default="wakeup-waits.txt")
    ap.add_argument("--parse")
    ap.add_argument("stress", nargs="*")
    args = ap.parse_args()
    if args.parse:
        report(args.parse)
        return
    if not args.stress:
        sys.exit("wakeup-waits.py: give stress-ng's arguments after --, e.g. -- --mmap 0")
    record(args)
    report(args.out)


if __name__ == "__main__":
    main()
