package dev.schedlab.engine.params;

/**
 * The one parameter table: every cost and tunable of the model with its default, unit and source.
 * Sources: [src] kernel source or public documentation; [seed] a seed e-mail; [derived] computed
 * from cited numbers; [estimate] an engineering estimate, a calibration knob; [host] measured on a
 * machine by {@code schedlab host} (rates 0, off, by default). Scenarios override by key ({@code
 * kernel.params}); features are 0/1 under {@code feature.NAME} ({@code kernel.features}).
 */
public enum Param {
  // --- scheduler tunables ---
  BASE_SLICE(
      "sched.base_slice",
      750_000,
      Unit.NS,
      "[src] fair.c sysctl_sched_base_slice (normalized; scaled by 1+ilog2(min(ncpus,8)))"),
  MIGRATION_COST(
      "sched.migration_cost", 500_000, Unit.NS, "[src] fair.c sysctl_sched_migration_cost"),
  NR_MIGRATE("sched.nr_migrate", 32, Unit.COUNT, "[src] core.c sysctl_sched_nr_migrate"),
  TIMER_SLACK(
      "sched.timer_slack",
      50_000,
      Unit.NS,
      "[src] init_task timer_slack_ns: hrtimer_nanosleep() lets a task that is neither RT nor DL expire up to this late (hrtimer_set_expires_range_ns), to batch wakeups"),
  RR_TIMESLICE("sched.rr_timeslice", 100_000_000, Unit.NS, "[src] RR_TIMESLICE"),
  RT_PERIOD("sched.rt_period", 1_000_000_000, Unit.NS, "[src] core.c sysctl_sched_rt_period"),
  RT_RUNTIME("sched.rt_runtime", 950_000_000, Unit.NS, "[src] core.c sysctl_sched_rt_runtime"),
  VCPU_PACK_UTIL(
      "sched.vcpu_pack_util",
      0,
      Unit.COUNT,
      "[host] a guest kernel's out-of-tree vCPU packing (sched_vcpu_pack= on its command line; not in mainline, source not public): select_idle_sibling() keeps a waking fair task on its busy target CPU, before the idle prev and the LLC scan, while the target has at most one task runnable (a third task woken in one interrupt went to the idle CPU at 464 of 565 wakeups in eight traced rt-app runs; docs/validation.md, 'Wakeup packing') and its util_avg without the task's blocked part plus the task's util_avg (no util_est: perf bench sched pipe's pair packed again while its util_est summed to 746-890 [measured on the project's Xeon 2-vCPU guest, /proc/PID/sched every 20 ms, 2026-12-03]) is below this many 1024ths of its capacity; `schedlab host` sets the value measured on this project's machine (docs/validation.md, 'Wakeup packing') when /proc/cmdline carries sched_vcpu_pack=; 0 = off (mainline)"),
  VCPU_PACK_FORK_UTIL(
      "sched.vcpu_pack_fork_util",
      0,
      Unit.COUNT,
      "[host] the same guest kernel's packing of new tasks, measured on this project's machine (Linux 6.18.44-fc, sched_vcpu_pack=15) with host/src/main/c/wake-packing.c -F 1/-F 2 (threads and fork(); 92 % of children stayed beside a parent alone below the cut-off, 2 % with another task runnable there; docs/validation.md, 'Fork packing'): select_task_rq_fair() with WF_FORK keeps the new task on the forking CPU, ahead of sched_balance_find_dst_cpu(), while that CPU runs nothing besides the parent (nothing at all for a task the scenario starts) and its utilisation (cpu_util(); the child has none yet) is below this many 1024ths of its capacity; `schedlab host` sets it with sched.vcpu_pack_util; 0 = off (mainline)"),
  // --- plugin supervision (docs/plugin-safety.md) ---
  WATCHDOG_TIMEOUT(
      "watchdog.timeout",
      30_000_000_000L,
      Unit.NS,
      "[src] kernel/sched/ext.c SCX_WATCHDOG_MAX_TIMEOUT (30 * HZ), the default and largest ops.timeout_ms: a runnable task that has not run for this long ejects the plugin involved; 0 turns the watchdog off"),
  PLUGIN_HOOK_BUDGET(
      "plugin.hook_budget",
      10_000_000_000L,
      Unit.NS,
      "[estimate] wall-clock time (not simulated) one plugin call may take before the run is stopped; hooks take microseconds, so this only catches a call that never returns, with room for a loaded machine; 0 turns the budget off. Outside the model: it never changes a result"),
  // --- scheduler path costs (CPU time on the CPU running the path) ---
  SCHED_BASE(
      "cost.sched_base",
      200,
      Unit.NS,
      "[estimate] __schedule() fixed part: rq lock, clock update, rcu note, flag clears (range 150-500 ns)"),
  PICK_FAIR("cost.pick_fair", 100, Unit.NS, "[estimate] pick_next_task_fair() with tasks"),
  CTX_SWITCH(
      "cost.ctx_switch", 600, Unit.NS, "[estimate] context_switch() between tasks of different mm"),
  CTX_SWITCH_LIGHT(
      "cost.ctx_switch_light",
      300,
      Unit.NS,
      "[estimate] context_switch() to/from idle or within one mm"),
  NEWIDLE_EARLY_EXIT(
      "cost.newidle_early_exit",
      300,
      Unit.NS,
      "[estimate] newidle balance that exits early (not overloaded / avg_idle small)"),
  TTWU_LOCAL(
      "cost.ttwu_local", 500, Unit.NS, "[estimate] try_to_wake_up() enqueue + wakeup_preempt"),
  TTWU_RUNNABLE(
      "cost.ttwu_runnable", 300, Unit.NS, "[seed 004] ttwu_runnable() for a task still queued"),
  SELECT_RQ(
      "cost.select_rq",
      150,
      Unit.NS,
      "[estimate] select_task_rq() without the LLC scan: wake_affine and the probes of target, prev and recent_used_cpu (~5 CPUs at cost.sis_per_cpu); the scan adds cost.sis_per_cpu per CPU probed"),
  SIS_PER_CPU(
      "cost.sis_per_cpu",
      30,
      Unit.NS,
      "[estimate] select_idle_cpu()/select_idle_core() per CPU probed: its rq's curr, nr_running and ttwu_pending, one cache line (latency.cacheline_same_llc) at most"),
  SYSCALL_ENTRY("cost.syscall_entry", 100, Unit.NS, "[estimate] kernel entry from user"),
  EXIT_TO_USER("cost.exit_to_user", 100, Unit.NS, "[estimate] exit_to_user_mode() without work"),
  FUTEX_WAIT(
      "cost.futex_wait",
      65,
      Unit.NS,
      "[measured] futex(FUTEX_WAIT_PRIVATE) on a word that no longer holds the expected value (get_futex_key(), the hash bucket's lock, the value read; kernel/futex/waitwake.c) less getppid(): 127-137 against 65-66 ns per call on the project's Intel Xeon 2-vCPU guest, 200 000 calls, median of 15 rounds (2026-12-02)"),
  FUTEX_WAKE(
      "cost.futex_wake",
      20,
      Unit.NS,
      "[measured] futex(FUTEX_WAKE_PRIVATE) with no waiter (get_futex_key(), the hash bucket's lookup; kernel/futex/waitwake.c) less getppid(): 83-92 against 65-66 ns per call, same runs as cost.futex_wait"),
  CGROUP_WRITE(
      "cost.cgroup_write",
      3680,
      Unit.NS,
      "[measured] a thread writing its TID into a cgroup-v1 cpu group's tasks file as rt-app does (fopen, fprintf, fclose: kernfs open, cgroup1_tasks_write(), cgroup_attach_task(), close) while the threadgroup rwsem's rcu_sync stays entered, less getppid(): p50 3734-4169 ns (median of three runs 3739) against 63 ns, 2000 writes alternating two groups, on the project's Intel Xeon 2-vCPU guest, quiet (2026-12-03; host/src/main/c/cgroup-write.c); the grace period a lone write waits is the model's own (RcuSync)"),
  DO_IDLE_ENTER(
      "cost.do_idle_enter",
      300,
      Unit.NS,
      "[estimate] do_idle() entry up to call_cpuidle(): polling set, nohz enter, governor select (with cost.cpuidle_enter the 0.5 us entry half of the ~1 us do_idle() enter+exit, kernel-model.md 2.1)"),
  DO_IDLE_EXIT(
      "cost.do_idle_exit",
      200,
      Unit.NS,
      "[estimate] do_idle() loop exit: preempt_set_need_resched, tick_nohz_idle_exit, polling clear (enter+exit ~1 us with cpuidle_exit)"),
  CPUIDLE_ENTER(
      "cost.cpuidle_enter",
      200,
      Unit.NS,
      "[estimate] call_cpuidle() to the state's own entry: cpuidle_enter_state() accounting, trace and RCU idle entry (default_idle_call() likewise), with POLLING clear until MWAIT or poll_idle() sets it again; the rest of cost.do_idle_enter's 0.5 us entry half"),
  CPUIDLE_EXIT(
      "cost.cpuidle_exit",
      300,
      Unit.NS,
      "[estimate] leaving an idle state: cpuidle_enter_state() accounting and the governor's reflect"),
  IDLE_RESELECT(
      "cost.idle_reselect",
      300,
      Unit.NS,
      "[estimate] one more idle-loop iteration after an IRQ that set no resched"),
  TICK_HANDLER(
      "cost.tick_handler", 1_500, Unit.NS, "[estimate] sched_tick + timekeeping + softirq raise"),
  TICK_STOP(
      "cost.tick_stop",
      1_500,
      Unit.NS,
      "[estimate] tick_nohz_stop_tick(): next event, hrtimer reprogram"),
  TICK_RESTART("cost.tick_restart", 1_000, Unit.NS, "[estimate] tick restart on idle exit"),
  LB_DOMAIN_BASE(
      "cost.lb_domain_base",
      1_000,
      Unit.NS,
      "[estimate] sched_balance_rq() fixed part per domain: env setup, find_busiest_group() bookkeeping (kernel-model.md 2.1: 2-20 us per domain, growing with its span)"),
  LB_PER_CPU_SCANNED(
      "cost.lb_per_cpu_scanned",
      100,
      Unit.NS,
      "[estimate] update_sg_lb_stats() per CPU of the domain: its rq and cfs_rq load, util and nr_running, about one remote cache-line miss (latency.cacheline_*)"),
  LB_PER_TASK(
      "cost.lb_per_task",
      2_000,
      Unit.NS,
      "[estimate] detach + attach of one migrated task (1-3 us)"),
  BLOCKED_LOAD_DECAY(
      "latency.blocked_load_decay",
      345_000_000,
      Unit.NS,
      "[src] PELT: an idle runqueue's load decays to zero in ~LOAD_AVG_MAX_N (345) periods"),
  NOHZ_STATS_PER_CPU(
      "cost.nohz_stats_per_cpu",
      300,
      Unit.NS,
      "[estimate] _nohz_idle_balance() per idle CPU, blocked load only"),
  IPI_SEND("cost.ipi_send", 150, Unit.NS, "[estimate] x2APIC ICR write on the sender"),
  IPI_SAME_SOCKET(
      "latency.ipi_same_socket", 800, Unit.NS, "[estimate] IPI delivery latency within a socket"),
  IPI_CROSS_SOCKET(
      "latency.ipi_cross_socket", 1_500, Unit.NS, "[estimate] IPI delivery latency across sockets"),
  IRQ_ENTRY("cost.irq_entry", 250, Unit.NS, "[estimate] half of IRQ entry+exit overhead (500 ns)"),
  IRQ_EXIT("cost.irq_exit", 250, Unit.NS, "[estimate] half of IRQ entry+exit overhead (500 ns)"),
  CSD_FN("cost.csd_fn", 50, Unit.NS, "[estimate] one CSD dequeue + call + unlock"),
  CACHELINE_SAME_LLC(
      "latency.cacheline_same_llc",
      60,
      Unit.NS,
      "[estimate] core-to-core cache-line transfer within an LLC (public core-to-core latency charts: ~50-90 ns on a server mesh); `schedlab host --calibrate` measures it (docs/host.md, step 2c): 28 ns on the project's Intel Xeon 2-vCPU guest"),
  CACHELINE_CROSS_LLC(
      "latency.cacheline_cross_llc",
      110,
      Unit.NS,
      "[estimate] cache-line transfer between LLCs of one socket (e.g. Zen 3 cross-CCX ~90-120 ns)"),
  SWITCH_REFILL(
      "latency.switch_refill",
      0,
      Unit.NS,
      "[measured on the project's Intel Xeon 2-vCPU guest, 2026-12-02; 0 = off unless a machine file sets it] cache refill of a task switched in after other tasks evicted its lines: a ring of N processes passing a byte through pipes on one CPU (host/src/main/c/switch-ring.c) took 1.12 us per hop at N = 2 and 2.07-2.13 us at N = 10, 20 and 40 (three quiet runs), 970 ns more; `schedlab host --calibrate` measures it with the probe's rings of 2, 3 and 12 (docs/host.md, step 2a)"),
  SWITCH_REFILL_KEEP_PCT(
      "latency.switch_refill_keep_pct",
      64,
      Unit.COUNT,
      "[measured on the same guest and ring] percent of a task's cache lines each other task run on its CPU since leaves in place: the ring's excess over N = 2 at N = 3, 4, 6 and 8 (0.32, 0.61, 0.81, 0.93 us of the 0.97) follows 1 - 0.64^(N-2)"),
  CACHE_PRIVATE_LINES(
      "cache.private_lines",
      0,
      Unit.COUNT,
      "[src] a CPU's private cache in 64-byte lines (the largest data cache no other core shares, /sys/devices/system/cpu/cpu0/cache/index*/size over its line size, as schedlab host writes it: 2048K, 32768 lines, on the project's Intel Xeon 2-vCPU guest; 0 = no limit unless a machine file sets it): a socket message's lines stay in the CPU that last touched them until that CPU has touched this many other message lines (docs/validation.md, hackbench)"),
  POLL_WAKE(
      "latency.poll_wake", 100, Unit.NS, "[estimate] poll_idle() noticing the NEED_RESCHED write"),
  TASK_WORK_OVERHEAD(
      "cost.task_work_overhead", 200, Unit.NS, "[estimate] task_work_run() excluding the work"),
  MM_CID_PER_CPU(
      "cost.mm_cid_per_cpu_check", 125, Unit.NS, "[derived] seed 001: 30-35 us over 2 x 128 CPUs"),
  MM_CID_SCAN_DELAY(
      "sched.mm_cid_scan_delay",
      100_000_000,
      Unit.NS,
      "[src] sched.h MM_CID_SCAN_DELAY (v6.4-v6.18)"),
  MM_CID_PERIOD(
      "sched.mm_cid_period",
      100_000_000,
      Unit.NS,
      "[src] sched.h SCHED_MM_CID_PERIOD_NS (v6.4-v6.18)"),
  VM_IPI_EXIT(
      "cost.vm_ipi_exit",
      1_500,
      Unit.NS,
      "[estimate] guest VM exit to send an IPI (the sender waits for it); `schedlab host --calibrate` measures it on a guest: 14.6 us on the project's 2-vCPU nested KVM guest (docs/validation.md, hackbench)"),
  VM_TIMER_EXIT(
      "cost.vm_timer_exit",
      1_500,
      Unit.NS,
      "[estimate] guest write of the local-APIC timer (TSC-deadline MSR or LVTT) to reprogram its clockevent traps to the host, like cost.vm_ipi_exit; `schedlab host --calibrate` measures it on a guest: 6.6 us on the project's 2-vCPU nested KVM guest (docs/validation.md, the cyclictest wake burst)"),
  VM_HALTED_WAKE(
      "latency.vm_halted_wake",
      10_000,
      Unit.NS,
      "[estimate] host wakeup of a halted vCPU whose thread the host scheduled out: the median; the spread parameters below draw each wakeup around it"),
  VM_HALTED_WAKE_SPREAD_P10(
      "latency.vm_halted_wake_spread_p10",
      0,
      Unit.NS,
      "[host] how far the host's 10th percentile of latency.vm_halted_wake lies below its median (schedlab-probe wake, idle target, by `schedlab host --calibrate`); 0 with the other two: every wakeup takes the median"),
  VM_HALTED_WAKE_SPREAD_P90(
      "latency.vm_halted_wake_spread_p90",
      0,
      Unit.NS,
      "[host] how far the host's 90th percentile of latency.vm_halted_wake lies above its median (the same probe run)"),
  VM_HALTED_WAKE_SPREAD_P99(
      "latency.vm_halted_wake_spread_p99",
      0,
      Unit.NS,
      "[host] how far the host's 99th percentile of latency.vm_halted_wake lies above its median (the same probe run): the tail of the host scheduler's wakeup of the vCPU thread"),
  VM_HALT_POLL_WAKE(
      "latency.vm_halt_poll_wake",
      4_000,
      Unit.NS,
      "[derived] host wakeup of a halted vCPU caught by KVM halt polling: latency.vm_halted_wake less the 5-7 us polling saves (kvm_main.c comment of aca6ff29c406)"),
  KVM_HALT_POLL_NS(
      "kvm.halt_poll_ns",
      200_000,
      Unit.NS,
      "[src] host KVM module parameter halt_poll_ns, x86 KVM_HALT_POLL_NS_DEFAULT; 0 disables halt polling"),
  KVM_HALT_POLL_NS_GROW(
      "kvm.halt_poll_ns_grow",
      2,
      Unit.COUNT,
      "[src] kvm_main.c halt_poll_ns_grow (factor per grow)"),
  KVM_HALT_POLL_NS_GROW_START(
      "kvm.halt_poll_ns_grow_start", 10_000, Unit.NS, "[src] kvm_main.c halt_poll_ns_grow_start"),
  KVM_HALT_POLL_NS_SHRINK(
      "kvm.halt_poll_ns_shrink",
      0,
      Unit.COUNT,
      "[src] kvm_main.c halt_poll_ns_shrink (divisor; 0 resets the window, the default of hosts of 2023)"),
  VM_TIMER_DELIVERY(
      "latency.vm_timer_delivery",
      1_500,
      Unit.NS,
      "[estimate] guest timer interrupt: from the expiry of the guest's local-APIC timer (emulated by the host with the VMX preemption timer or an hrtimer) to the vector's injection; a running vCPU is stopped meanwhile (the exit, KVM's handling, the entry), a halted one is woken after it. About one exit/entry round trip on a bare-metal host; far more in nested guests: schedlab host --calibrate measures it"),
  // --- speculative-execution mitigations (machine.mitigations; each adds to the default costs) ---
  MITIGATION_PTI(
      "cost.mitigation_pti",
      100,
      Unit.NS,
      "[estimate] page-table isolation: the CR3 switch at every kernel entry and exit (SWITCH_TO_KERNEL_CR3, arch/x86/entry/calling.h), with PCID so no TLB flush; added to syscall entry and exit and IRQ entry and exit"),
  MITIGATION_PTI_NOPCID(
      "cost.mitigation_pti_nopcid",
      300,
      Unit.NS,
      "[estimate] page-table isolation without PCID: each CR3 switch also flushes the TLB and the code after it refills it; added on top of cost.mitigation_pti when the CPU lacks pcid"),
  MITIGATION_VERW(
      "cost.mitigation_verw",
      250,
      Unit.NS,
      "[estimate] MDS/TAA/MMIO/RFDS 'Clear CPU buffers': VERW on every return to user (x86_clear_cpu_buffers in the exit path); added to exit to user"),
  MITIGATION_RSB_FILL(
      "cost.mitigation_rsb_fill",
      20,
      Unit.NS,
      "[estimate] spectre_v2 'Filling RSB on context switch': 32 RSB-stuffing calls in __switch_to_asm; added to every context switch"),
  MITIGATION_IBPB(
      "cost.mitigation_ibpb",
      2_000,
      Unit.NS,
      "[estimate] spectre_v2 'IBPB: always-on': an indirect branch prediction barrier when switching to another mm (cond_mitigation() in arch/x86/mm/tlb.c); added to cost.ctx_switch"),
  MITIGATION_RETPOLINE_PCT(
      "cost.mitigation_retpoline_pct",
      5,
      Unit.COUNT,
      "[estimate] spectre_v2 'Retpolines': every indirect call and jump in the kernel becomes a retpoline; percent added to every kernel path cost (cost.* in ns)"),
  MITIGATION_RETURN_THUNK_PCT(
      "cost.mitigation_return_thunk_pct",
      10,
      Unit.COUNT,
      "[estimate] retbleed/SRSO return thunks (untrained return thunk, 'Safe RET'): every kernel return goes through a thunk; percent added to every kernel path cost (cost.* in ns)"),
  // --- the haltpoll cpuidle governor's module parameters (drivers/cpuidle/governors/haltpoll.c)
  // ---
  HALTPOLL_GUEST_HALT_POLL_NS(
      "haltpoll.guest_halt_poll_ns",
      200_000,
      Unit.NS,
      "[src] haltpoll.c guest_halt_poll_ns: the largest poll window"),
  HALTPOLL_GROW(
      "haltpoll.guest_halt_poll_grow", 2, Unit.COUNT, "[src] haltpoll.c guest_halt_poll_grow"),
  HALTPOLL_GROW_START(
      "haltpoll.guest_halt_poll_grow_start",
      50_000,
      Unit.NS,
      "[src] haltpoll.c guest_halt_poll_grow_start"),
  HALTPOLL_SHRINK(
      "haltpoll.guest_halt_poll_shrink",
      2,
      Unit.COUNT,
      "[src] haltpoll.c guest_halt_poll_shrink (divisor)"),
  HALTPOLL_ALLOW_SHRINK(
      "haltpoll.guest_halt_poll_allow_shrink",
      1,
      Unit.BOOL,
      "[src] haltpoll.c guest_halt_poll_allow_shrink"),
  RCU_FIRST_FQS(
      "rcu.jiffies_till_first_fqs",
      -1,
      Unit.COUNT,
      "[src] kernel/rcu/tree.c jiffies_till_first_fqs: jiffies from a grace period's start to its first force-quiescent-state scan (rcu_gp_fqs_loop), which reports the CPUs found idle; -1: the kernel's default, RCU_JIFFIES_TILL_FORCE_QS (1 + (HZ > 250) + (HZ > 500)) + nr_cpu_ids / 256 (rcu_init_geometry)"),
  RCU_NEXT_FQS(
      "rcu.jiffies_till_next_fqs",
      -1,
      Unit.COUNT,
      "[src] kernel/rcu/tree.c jiffies_till_next_fqs: jiffies between the later scans; -1: the same default as the first, at least 1"),
  RCU_CORE(
      "cost.rcu_core",
      500,
      Unit.NS,
      "[estimate] rcu_core() in RCU_SOFTIRQ besides the callbacks: rcu_check_quiescent_state(), note_gp_changes() and rcu_report_qs_rdp() under the rcu_node lock (range 0.3-1 us)"),
  RCU_CB_OVERHEAD(
      "cost.rcu_cb_overhead",
      100,
      Unit.NS,
      "[estimate] invoking one RCU callback (rcu_do_batch per callback)"),
  RCU_BLIMIT(
      "rcu.blimit",
      10,
      Unit.COUNT,
      "[src] kernel/rcu/tree.c blimit (DEFAULT_RCU_BLIMIT 10): callbacks rcu_do_batch() invokes in softirq before it stops, when need_resched() or the CPU is not idle, and raises RCU_SOFTIRQ again for the rest"),
  RCU_DIVISOR(
      "rcu.divisor",
      7,
      Unit.COUNT,
      "[src] kernel/rcu/tree.c rcu_divisor: the batch limit is max(blimit, queued callbacks >> rcu_divisor)"),
  RCU_RESCHED_NS(
      "rcu.resched_ns",
      3_000_000,
      Unit.NS,
      "[src] kernel/rcu/tree.c rcu_resched_ns (RCU_RESCHED_NS, clamped to 1 ms-1 s): a batch limit over 100 also stops rcu_do_batch() in softirq after this long (rcu_do_batch_check_time(), every 32 callbacks)"),
  RCU_NORMAL_WAKE_FROM_GP(
      "rcu.normal_wake_from_gp",
      -1,
      Unit.COUNT,
      "[src] kernel/rcu/tree.c rcu_normal_wake_from_gp: 1: synchronize_rcu() starts its grace period at once (start_poll_synchronize_rcu()) and the grace-period kthread's cleanup wakes it (rcu_sr_normal_gp_cleanup()); 0: it waits for a call_rcu_hurry() callback, invoked in RCU_SOFTIRQ after the grace period; -1: the kernel's default, 1 on machines of at most 16 CPUs (rcu_init(), WAKE_FROM_GP_CPU_THRESHOLD; 1 on the project's 2-vCPU Linux 6.18 guest)"),
  SOFTIRQ_MAX_TIME(
      "softirq.max_time_ns",
      2_000_000,
      Unit.NS,
      "[src] kernel/softirq.c MAX_SOFTIRQ_TIME msecs_to_jiffies(2): handle_softirqs() restarts for raised softirqs only while jiffies is before its start plus this, rounded up to jiffies"),
  SOFTIRQ_MAX_RESTART(
      "softirq.max_restart",
      10,
      Unit.COUNT,
      "[src] kernel/softirq.c MAX_SOFTIRQ_RESTART: handle_softirqs() passes at most this many times (and not once need_resched() is set), then wakes ksoftirqd for the rest"),
  // --- background kernel activity (docs/model.md "Background kernel activity"; 0 = off) ---
  BG_TIMER_RATE(
      "bg.timer_rate_milli",
      0,
      Unit.COUNT,
      "[host] background timer-wheel (timer_list) expiries per CPU per second, x1000; each raises TIMER_SOFTIRQ from the tick (kernel/time/timer.c run_local_timers); `schedlab host` takes /proc/softirqs TIMER per CPU over an idle window; 0 = no background activity"),
  BG_TIMER_DEFERRABLE(
      "bg.timer_deferrable_permille",
      0,
      Unit.COUNT,
      "[src] share of those timers (per mille) that are TIMER_DEFERRABLE (vmstat_update's delayed work, ...): they wait on BASE_DEF for a tick that comes anyway, get_next_timer_interrupt() leaves them out for an idle CPU; not measured (it needs timer tracing)"),
  BG_TIMER_CALLBACK(
      "cost.bg_timer_callback",
      1_000,
      Unit.NS,
      "[estimate] one background timer callback run by __run_timers()/expire_timers() in TIMER_SOFTIRQ (range 0.5-3 us)"),
  BG_KWORKER_SHARE(
      "bg.kworker_permille",
      0,
      Unit.COUNT,
      "[host] share of background expiries (per mille) whose callback queues work on the CPU's bound kworker (delayed_work_timer_fn -> __queue_work); `schedlab host`: kworker/N:* run count delta / TIMER softirq delta over an idle window"),
  BG_KWORKER_BURST(
      "bg.kworker_burst",
      10_000,
      Unit.NS,
      "[host] CPU time of one background work item in the kworker; `schedlab host`: kworker/N:* runtime delta / run count delta (/proc/PID/schedstat); the default is an estimate"),
  BG_RCU_CALLBACKS(
      "bg.rcu_callbacks_milli",
      0,
      Unit.COUNT,
      "[host] RCU callbacks (call_rcu) the background queues per expiry, x1000; `schedlab host --calibrate`: 1000 x /proc/softirqs RCU delta / TIMER delta over an idle window (at most 1000), scaled by that ratio over the model's own RCU / TIMER softirqs in an idle model window, since the model spends several RCU softirqs per callback (docs/host.md)"),
  NOHZ_FULL_MAX_DEFER(
      "latency.nohz_full_max_defer",
      1_000_000_000,
      Unit.NS,
      "[src] nohz_full: the tick is deferred by at most 1 s with one task running (residual 1 Hz tick, sched_tick_remote)"),
  SMT_EXTRA_THREAD_GAIN(
      "smt.extra_thread_gain_pm",
      300,
      Unit.COUNT,
      "[estimate] per mille of a core's single-thread throughput each further busy SMT thread adds (SMT2 ~1.2-1.3x, POWER9 SMT4 ~1.9-2.2x a single thread)"),
  SMT_SPIN_WEIGHT(
      "smt.spin_weight_pm",
      250,
      Unit.COUNT,
      "[estimate] per mille of a busy thread's demand that a spinning or polling thread takes from its core (pause / HMT_low)"),
  COST_JITTER(
      "cost.jitter_pct",
      20,
      Unit.COUNT,
      "[estimate] kernel path costs and hardware latencies vary by cache state: each use draws uniformly within +-this percent of its value"),
  // --- sched features (features.h) and engine switches, 1 = on ---
  PLACE_LAG("feature.PLACE_LAG", 1, Unit.BOOL, "[src] features.h"),
  PLACE_DEADLINE_INITIAL("feature.PLACE_DEADLINE_INITIAL", 1, Unit.BOOL, "[src] features.h"),
  PLACE_REL_DEADLINE("feature.PLACE_REL_DEADLINE", 1, Unit.BOOL, "[src] features.h"),
  RUN_TO_PARITY("feature.RUN_TO_PARITY", 1, Unit.BOOL, "[src] features.h"),
  PREEMPT_SHORT("feature.PREEMPT_SHORT", 1, Unit.BOOL, "[src] features.h"),
  PICK_BUDDY("feature.PICK_BUDDY", 1, Unit.BOOL, "[src] features.h"),
  NEXT_BUDDY("feature.NEXT_BUDDY", 0, Unit.BOOL, "[src] features.h"),
  DELAY_DEQUEUE("feature.DELAY_DEQUEUE", 1, Unit.BOOL, "[src] features.h (v6.12+)"),
  DELAY_ZERO("feature.DELAY_ZERO", 1, Unit.BOOL, "[src] features.h (v6.12+)"),
  WAKEUP_PREEMPTION("feature.WAKEUP_PREEMPTION", 1, Unit.BOOL, "[src] features.h"),
  PROTECT_QUANTUM(
      "feature.PROTECT_QUANTUM",
      0,
      Unit.BOOL,
      "[src] 0 = v6.12-v6.16; 1 = v6.17+ (Vincent Guittot's series 9cdb4fe20cd2..0b9ca2dcabc3, lore 20250708165630.1948751-1-vincent.guittot@linaro.org): the slice protection is a quantum, honoured with or without RUN_TO_PARITY (without it the normalized base slice); update_curr() reschedules as soon as it ends with another entity queued; a shorter-slice wakee that does not preempt cuts it to the queue's min slice; `schedlab host` sets it for a 6.17+ kernel"),
  FORK_NO_PREEMPT(
      "feature.FORK_NO_PREEMPT",
      0,
      Unit.BOOL,
      "[src] 0 = v6.18 and before: a new task woken by wake_up_new_task() preempts its parent when the pick then takes it (placed at the parent's vruntime with half a slice to its deadline, it is the pick once the parent's slice protection is over); 1 = Mel Gorman's NEXT_BUDDY rework (lore 20251027133915.4103633-3-mgorman@techsingularity.net, merged after v6.18): check_preempt_wakeup_fair() returns before any pick for a new task (WF_FORK) or a wakee still delayed. The project's 6.18.44-fc guest behaves as the rework (host/src/main/c/fork-preempt.c: a child pinned beside a parent that had spun 5 ms ran within 100 us of its fork 7 times of 200, at ticks; docs/validation.md 'New tasks'); `schedlab host` sets it for a 6.19+ kernel and that build"),
  YIELD_FORFEIT(
      "feature.YIELD_FORFEIT",
      0,
      Unit.BOOL,
      "[src] 0 = before v6.17: yield_task_fair() moves the deadline one slice on; 1 = v6.17+ (79104becf42b 'sched/fair: Forfeit vruntime on yield', lore 20250916140228.452231-1-sieberf@amazon.com): an eligible yielder's vruntime moves to its deadline, the deadline one slice past it; `schedlab host` sets it for a 6.17+ kernel"),
  TTWU_QUEUE("feature.TTWU_QUEUE", 1, Unit.BOOL, "[src] features.h (off on PREEMPT_RT)"),
  TTWU_QUEUE_IDLE(
      "feature.TTWU_QUEUE_IDLE",
      1,
      Unit.BOOL,
      "[src] 1 = v6.0+ (f3dd3f674555 'sched: Remove the limitation of WF_ON_CPU on wakelist if wakee cpu is idle', 28156108fecb): ttwu_queue_cond() also queues on a CPU of the waker's LLC that has nothing running; 0 = v3.0-v5.7 (518cd6234178 'sched: Only queue remote wakeups when crossing cache boundaries'): ttwu_queue() queues only across LLCs, within one the waker locks the target rq and activates the task, and check_preempt_curr() sends a reschedule IPI unless the target polls. v5.8-v5.19's case of a wakee still descheduling on its CPU (c6e7bd7afaeb, 2ebb17717550) is not modelled"),
  TTWU_DEQUEUE(
      "feature.TTWU_DEQUEUE",
      0,
      Unit.BOOL,
      "[src] 1 = a delayed-dequeue task that is woken while its runqueue runs another task and that may run on another CPU (rq->nr_running > 1 && p->nr_cpus_allowed > 1) is dequeued and takes the regular wakeup path, select_task_rq() included; pinned tasks and tasks alone on their runqueue are requeued in place (Mike Galbraith, d68803506ffb 'sched/fair: Dequeue sched_delayed tasks when waking to a busy CPU', tip sched/urgent 2024-11; Peter Zijlstra's later 'sched: Change ttwu_runnable() vs sched_delayed', lore 20250702121159.*@infradead.org, drops the condition). The project's 6.18 guest behaves as the conditional rule: an unpinned task beside a hog woke through select_task_rq(), a pinned cyclictest thread was requeued (docs/validation.md 'Delayed wakees'); schedlab host sets it for that kernel build; 0 = v6.12's ttwu_runnable(): requeued in place on its CPU (ENQUEUE_DELAYED)"),
  TTWU_DEQUEUE_KEEP_LAG(
      "feature.TTWU_DEQUEUE_KEEP_LAG",
      0,
      Unit.BOOL,
      "[host] with feature.TTWU_DEQUEUE, 1 = the dequeue a wakeup completes keeps the lag the task earned while delayed, positive included, where DEQUEUE_DELAYED's finish_delayed_dequeue_entity() clips it to zero under DELAY_ZERO (0, d68803506ffb as written). The project's 6.18.44-fc guest keeps it: a parent delayed at its block beside its new child (counted in /proc/stat procs_running at 197 of 200 wakeups) and woken after the child ran longer than it preempted the child at 195 of those (host/src/main/c/delayed-lag.c; docs/validation.md 'Delayed wakees'); with the lag clipped it is placed behind the child's earlier deadline and waits; `schedlab host` sets it for that build"),
  SIS_UTIL(
      "feature.SIS_UTIL",
      1,
      Unit.BOOL,
      "[src] features.h: the wakeup scan's depth follows the LLC's utilisation (70fb5ccf2ebb, v6.0)"),
  SIS_PROP(
      "feature.SIS_PROP",
      0,
      Unit.BOOL,
      "[src] 1 = v4.11-v5.12's SIS_PROP (1ad3aaf3fcd2): select_idle_cpu() probes up to nr - 1 CPUs, nr = LLC span weight x this_rq()->avg_idle / 512 / (this_sd->avg_scan_cost + 1), at least 4; avg_scan_cost follows each completed scan's time by an eighth (on by default until v6.0's SIS_UTIL; v5.13 ages avg_idle first, not modelled); 0 = off"),
  SIS_CORE_CPU_SMT(
      "feature.SIS_CORE_CPU_SMT",
      0,
      Unit.BOOL,
      "[src] 1 = v4.16-v5.11's select_idle_sibling(): idle target, idle prev, an idle recent_used_cpu (the waker's CPU after an affine wakeup), select_idle_core(), select_idle_cpu() from target, select_idle_smt() of target; idle_cpu() only; 0 = v5.12+ (9fe1f127b913 'sched/fair: Merge select_idle_core/cpu()'; recent_used_cpu = prev since v5.15's 'sched/fair: Use prev instead of new target as recent_used_cpu'; select_idle_smt() of prev before the scan since v5.19)"),
  LB_MIN(
      "feature.LB_MIN",
      0,
      Unit.BOOL,
      "[src] features.h: detach_tasks() skips tasks of load below 16 until a balance failed"),
  WA_IDLE("feature.WA_IDLE", 1, Unit.BOOL, "[src] features.h: wake_affine_idle()"),
  WA_WEIGHT("feature.WA_WEIGHT", 1, Unit.BOOL, "[src] features.h: wake_affine_weight()"),
  WA_BIAS(
      "feature.WA_BIAS",
      1,
      Unit.BOOL,
      "[src] features.h: wake_affine_weight() favours prev by half the imbalance_pct"),
  POLLING_IPI(
      "feature.POLLING_IPI",
      1,
      Unit.BOOL,
      "[src] b2a02fc43a1f smp: send no IPI to a polling idle CPU (v5.8)"),
  SMT_CACHE_HOT(
      "feature.SMT_CACHE_HOT",
      0,
      Unit.BOOL,
      "[src] 1 = before v5.10: task_hot() holds a recently run task back from its SMT sibling too; 0 = v5.10+ (ec73240b1627 'sched/fair: Ignore cache hotness for SMT migration': siblings share their caches)"),
  NEWIDLE_MIGRATION_COST_GATE(
      "feature.NEWIDLE_MIGRATION_COST_GATE",
      0,
      Unit.BOOL,
      "[src] 1 = before v5.16: idle_balance() is skipped while avg_idle < sysctl_sched_migration_cost; 0 = v5.16+ (c5b0a7eefc70 'sched/fair: Remove sysctl_sched_migration_cost condition'): only the per-domain max_newidle_lb_cost gate"),
  FIND_IDLEST_BY_LOAD(
      "feature.FIND_IDLEST_BY_LOAD",
      0,
      Unit.BOOL,
      "[src] 1 = before v5.5: fork/exec placement by find_idlest_group() on runnable load, then avg_load (blocked load included), with imbalance_pct margins; 0 = v5.5+ (57abff067a08 'sched/fair: Rework find_idlest_group()'): group types, idle-CPU counts, util"),
  ILB_SKIP_IF_NEED_RESCHED(
      "feature.ILB_SKIP_IF_NEED_RESCHED",
      0,
      Unit.BOOL,
      "[src] 1 = v6.6-v6.12: nohz_csd_func() skips the ILB when need_resched(), which a polling-shortcut kick always sets; 0 = v6.13+ (ea9cffc0a154)"),
  WA_WEIGHT_RUNNABLE_LOAD(
      "feature.WA_WEIGHT_RUNNABLE_LOAD",
      0,
      Unit.BOOL,
      "[src] 1 = before v5.5: wake_affine_weight() weighs the two CPUs' runnable_load_avg (target_load()/source_load() at wake_idx 0: queued entities only, blocked load left out); 0 = v5.5+ (11f10e5420f6 'sched/fair: Use load instead of runnable load in wakeup path'): cpu_load(), blocked load included"),
  ACTIVE_BALANCE_ON_FAILURES(
      "feature.ACTIVE_BALANCE_ON_FAILURES",
      0,
      Unit.BOOL,
      "[src] 1 = before v5.12: need_active_balance() ends in nr_balance_failed > cache_nice_tries + 2 whatever the imbalance, a kicked active balance sets nr_balance_failed to cache_nice_tries + 1 (task_hot() ignored until a pull succeeds; removed in v5.13 by 23fb06d9602b) and doubles balance_interval; 0 = v5.12+ (e9b9734b7465 'sched/fair: Reduce cases for active balance'): only for migrate_task, the interval kept"),
  LB_AVG_LOAD(
      "feature.LB_AVG_LOAD",
      0,
      Unit.BOOL,
      "[src] 1 = before v5.5: load_balance() as v4.17 (LoadBalance417): groups group_other, group_imbalanced (sgc->imbalance after LBF_SOME_PINNED) or group_overloaded, find_busiest_group() on avg_load (runnable load per capacity), calculate_imbalance() with load_above_capacity and fix_small_imbalance(), find_busiest_queue() by weighted load per capacity, detach_tasks() by task_h_load() with the load/2 > imbalance skip, LBF_ALL_PINNED redo, the interval doubled on balanced newidle passes too (until v5.1's 3f130a37c442); 0 = v5.5+ (0b0695f2b34a 'sched/fair: Rework load_balance()'): group types, migration types load/util/task/misfit"),
  BUSY_FACTOR(
      "topology.busy_factor",
      16,
      Unit.COUNT,
      "[src] sd_init() busy_factor, the balance interval's multiplier on a busy CPU: 16 since v5.10 (6e7499135db7 'sched/fair: Reduce busy load balance interval'), 32 before"),
  IMBALANCE_PCT_PKG(
      "topology.imbalance_pct_pkg",
      117,
      Unit.COUNT,
      "[src] sd_init() imbalance_pct (percent) of a level above the LLC that is not NUMA (PKG, DIE): 117 since v5.10 (2208cdaa56c9 'sched/fair: Reduce minimal imbalance threshold'), 125 before"),
  IMBALANCE_PCT_NUMA(
      "topology.imbalance_pct_numa",
      117,
      Unit.COUNT,
      "[src] sd_init() imbalance_pct (percent) of the NUMA level: the 117 default since v5.10 (2208cdaa56c9 'sched/fair: Reduce minimal imbalance threshold'; sd_init()'s SD_NUMA branch sets no imbalance_pct of its own), 125 before"),
  NODE_DISTANCE(
      "topology.node_distance",
      20,
      Unit.COUNT,
      "[src] node_distance() between two NUMA nodes (the modelled NUMA level's): include/linux/topology.h REMOTE_DISTANCE without a firmware table; a two-socket POWER9 reports 40 (arch/powerpc/mm/numa.c __node_distance() doubles LOCAL_DISTANCE per associativity level)"),
  RECLAIM_DISTANCE(
      "topology.reclaim_distance",
      30,
      Unit.COUNT,
      "[src] RECLAIM_DISTANCE (include/linux/topology.h; node_reclaim_distance since v5.4); arch/powerpc/include/asm/topology.h sets 10. sd_init() takes SD_BALANCE_FORK, SD_BALANCE_EXEC and SD_WAKE_AFFINE off a NUMA level whose distance is larger");

  /** Units of parameter values. */
  public enum Unit {
    NS,
    COUNT,
    BOOL
  }

  private final String key;
  private final long defaultValue;
  private final Unit unit;
  private final String source;

  Param(String key, long defaultValue, Unit unit, String source) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.unit = unit;
    this.source = source;
  }

  /** Key used in scenarios and by {@code SchedServices.param}. */
  public String key() {
    return key;
  }

  /** Default value in {@link #unit()}. */
  public long defaultValue() {
    return defaultValue;
  }

  /** Unit. */
  public Unit unit() {
    return unit;
  }

  /** Provenance tag and citation. */
  public String source() {
    return source;
  }
}
