#!/usr/bin/env python3
"""How long a vCPU stays busy when a cyclictest thread's timer wakes it from idle.

Records, through tracefs (root), `cyclictest -i 100 -d 100 --latency=1000 -t -m` (seed 002's
command line) with the idle, timer, wakeup and switch events on the x86-tsc clock (ftrace's
default clock prints whole microseconds), or reads a trace recorded so or written by
`schedlab run --trace`, and splits each clean burst of a CPU (idle, one timer interrupt waking
one measurement thread, the thread's run, idle again) into:

  vector to wakeup      local_timer_entry to sched_wakeup (the model wakes at the vector)
  wakeup to IRQ exit    the rest of hrtimer_interrupt(): it programs the next event
  IRQ exit to switch-in idle exit, the tick's restart, the switch to the thread
  switch-in to out      the thread: the return to user, its next clock_nanosleep() arming its timer
  switch-out to idle    the tick stop and the idle entry

It also counts the ticks that fire while the CPU is out of its idle state (busy ticks, which may
send the nohz idle-balance kick), the kicks (a call-function-single interrupt that raises
SCHED_SOFTIRQ: nohz_csd_func(); needs --softirq), and the timer's lateness past its hard expiry.
A CPU whose trace has no cpu_idle events is skipped.

  wake-burst.py --record [--seconds 5] [--softirq] [--out trace.txt]
  wake-burst.py trace.txt
"""

import argparse
import re
import statistics
import subprocess
import sys

T = "/sys/kernel/tracing"
EVENTS = [
    "power:cpu_idle",
    "sched:sched_switch",
    "sched:sched_waking",
    "sched:sched_wakeup",
    "timer:hrtimer_start",
    "timer:hrtimer_expire_entry",
    "timer:tick_stop",
    "irq_vectors:local_timer_entry",
    "irq_vectors:local_timer_exit",
    "irq_vectors:call_function_single_entry",
]
LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):\s?(.*)$")
IDLE_EXIT = "4294967295"
TICK = ("tick_nohz_handler", "tick_sched_timer")
PARTS = [
    ("vector to wakeup", "irq", "wake"),
    ("wakeup to IRQ exit", "wake", "irqexit"),
    ("IRQ exit to switch-in", "irqexit", "swin"),
    ("switch-in to switch-out", "swin", "swout"),
    ("switch-out to idle entry", "swout", "idle"),
    ("burst: vector to idle entry", "irq", "idle"),
]


def put(path, text):
    with open(f"{T}/{path}", "w") as f:
        f.write(text)


def record(seconds, softirq, out):
    events = EVENTS + (["irq:softirq_raise"] if softirq else [])
    put("tracing_on", "0")
    put("trace_clock", "x86-tsc")
    put("trace", "")
    put("buffer_size_kb", "40000")
    put("set_event", "\n".join(events) + "\n")
    put("tracing_on", "1")
    try:
        subprocess.run(
            ["cyclictest", "-i", "100", "-d", "100", "--latency=1000", "-t", "-m", "-q",
             "-D", str(seconds)],
            check=True,
        )
    finally:
        put("tracing_on", "0")
        with open(f"{T}/trace") as src, open(out, "w") as dst:
            dst.write(src.read())
        put("set_event", "")
        put("trace", "")
        put("trace_clock", "local")


def parse(path):
    """(comm, cpu, raw timestamp, event, fields) per line; the model's names mapped to ftrace's."""
    for ln in open(path, errors="replace"):
        m = LINE.match(ln)
        if not m or ln.startswith("#"):
            continue
        comm, _, cpu, ts, ev, rest = m.groups()
        f = dict(re.findall(r"(\w+)=(\S+)", rest))
        if ev == "irq_handler_entry":
            ev = "local_timer_entry" if f.get("name") == "timer" else "other_irq"
        elif ev == "irq_handler_exit":
            ev = "local_timer_exit"  # a burst with another interrupt is not counted anyway
        comm = "<idle>" if comm.startswith("swapper/") else comm
        for k in ("comm", "next_comm", "prev_comm"):
            if f.get(k, "").startswith("cyclictest/") and f[k] != "cyclictest/main":
                f[k] = "cyclictest"
        if comm.startswith("cyclictest/") and comm != "cyclictest/main":
            comm = "cyclictest"
        yield comm, int(cpu), ts, ev, f


def clock(evs):
    """Raw timestamp to ns: seconds as printed, or x86-tsc counts fitted to hrtimer `now` fields."""
    if "." in evs[0][2]:
        return lambda ts: float(ts) * 1e9
    pts = [(int(e[2]), int(e[4]["now"])) for e in evs if e[3] == "hrtimer_expire_entry"]
    (t0, n0), (t1, n1) = pts[0], pts[-1]
    ghz = (t1 - t0) / (n1 - n0)
    return lambda ts: (int(ts) - t0) / ghz


def kicks(evs, ns):
    """Call-function-single interrupts that raise SCHED_SOFTIRQ: nohz_csd_func(), an ILB kick."""
    n, csd_at = 0, None
    for _, _, ts, ev, f in evs:
        if ev == "call_function_single_entry":
            csd_at = ns(ts)
        elif ev == "softirq_raise" and f.get("vec") == "7" and csd_at is not None:
            n += ns(ts) - csd_at < 20e3
            csd_at = None
    return n


def analyse(cpu, evs, ns, seconds):
    bursts, other, late = [], 0, []
    ticks = busy = 0
    idle, cur, starts = False, None, {}
    for comm, _, ts, ev, f in evs:
        t = ns(ts)
        if ev == "hrtimer_start":
            starts[f["hrtimer"]] = int(f["expires"])
        elif ev == "hrtimer_expire_entry":
            if f["function"] == "hrtimer_wakeup" and f["hrtimer"] in starts:
                late.append(int(f["now"]) - starts[f["hrtimer"]])
            if f["function"] in TICK:
                ticks += 1
                busy += not idle
        if ev == "cpu_idle":
            entering = f["state"] != IDLE_EXIT
            if entering and cur is not None:
                cur["idle"] = t
                clean = cur.get("clean", True) and "swin" in cur and "swout" in cur
                bursts.append(cur) if clean else None
                other += not clean
                cur = None
            idle = entering
            continue
        if ev == "local_timer_entry" and comm == "<idle>" and cur is None:
            cur = {"irq": t}
        elif cur is None:
            continue
        elif ev == "sched_wakeup":
            if f["comm"] == "cyclictest" and "wake" not in cur:
                cur["wake"] = t
            else:
                cur["clean"] = False
        elif ev == "local_timer_exit" and "irqexit" not in cur:
            cur["irqexit"] = t
        elif ev == "sched_switch":
            if f["next_comm"] == "cyclictest" and f["prev_pid"] == "0" and "swin" not in cur:
                cur["swin"] = t
            elif f["prev_comm"] == "cyclictest" and f["next_pid"] == "0" and "swin" in cur:
                cur["swout"] = t
            else:
                cur["clean"] = False
        elif ev in ("local_timer_entry", "call_function_single_entry", "other_irq"):
            cur["clean"] = False
    print(f"CPU {cpu}: {len(bursts)} clean bursts ({len(bursts) / seconds:.0f}/s), {other} others")
    for name, a, b in PARTS:
        v = sorted(x[b] - x[a] for x in bursts if a in x and b in x)
        if v:
            print(f"  {name:28s} mean {statistics.mean(v) / 1e3:6.2f} us  p10 "
                  f"{v[len(v) // 10] / 1e3:6.2f}  p90 {v[len(v) * 9 // 10] / 1e3:6.2f}")
    if late:
        print(f"  timer lateness past its hard expiry: median {sorted(late)[len(late) // 2] / 1e3:.2f} us")
    print(f"  ticks {ticks / seconds:.1f}/s, busy {busy / seconds:.1f}/s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace", nargs="?")
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--softirq", action="store_true", help="also record irq:softirq_raise")
    ap.add_argument("--out", default="wake-burst.txt")
    a = ap.parse_args()
    if a.record:
        record(a.seconds, a.softirq, a.out)
        path = a.out
    elif a.trace:
        path = a.trace
    else:
        ap.error("a trace file, or --record")
    evs = list(parse(path))
    if not evs:
        sys.exit(f"wake-burst.py: {path}: no trace events")
    ns = clock(evs)
    seconds = (ns(evs[-1][2]) - ns(evs[0][2])) / 1e9
    for cpu in sorted({e[1] for e in evs}):
        mine = [e for e in evs if e[1] == cpu]
        if any(e[3] == "cpu_idle" for e in mine):
            analyse(cpu, mine, ns, seconds)
        else:
            print(f"CPU {cpu}: no cpu_idle events, no bursts")
        print(f"  ILB kicks received {kicks(mine, ns) / seconds:.1f}/s")


if __name__ == "__main__":
    main()
