package dev.schedlab.api;

/**
 * Statistics of one sched group ({@code struct sg_lb_stats}) and its classification ({@code
 * group_classify()}), as the wakeup slow path and the load balancer compute them. Group types are
 * ordered from the least to the most in need of balancing, as {@code enum group_type}. Since API
 * 1.2.0.
 */
public final class GroupStats {
  /** {@code group_has_spare}: the group could take more work. */
  public static final int HAS_SPARE = 0;

  /** {@code group_fully_busy}: no spare capacity, but not overloaded. */
  public static final int FULLY_BUSY = 1;

  /** {@code group_misfit_task}: a task needs a bigger CPU than this group has. */
  public static final int MISFIT_TASK = 2;

  /** {@code group_smt_balance}: SMT siblings both busy while another core idles. */
  public static final int SMT_BALANCE = 3;

  /** {@code group_asym_packing}: a preferred CPU elsewhere is idle. */
  public static final int ASYM_PACKING = 4;

  /** {@code group_imbalanced}: affinity kept an earlier balance from succeeding. */
  public static final int IMBALANCED = 5;

  /** {@code group_overloaded}: more tasks than CPUs and little capacity left. */
  public static final int OVERLOADED = 6;

  /** Names of the group types, by value. */
  @SuppressWarnings("MutablePublicArray") // public API (japicmp): changing its type breaks plugins
  public static final String[] NAMES = {
    "has_spare",
    "fully_busy",
    "misfit_task",
    "smt_balance",
    "asym_packing",
    "imbalanced",
    "overloaded"
  };

  /** {@code avg_load}: load per capacity unit (fully busy and overloaded groups only). */
  public long avgLoad;

  /** {@code group_load}: sum of the CPUs' fair load_avg. */
  public long load;

  /** {@code group_util}. */
  public long util;

  /** {@code group_runnable}. */
  public long runnable;

  /** {@code group_capacity}: sum of {@code capacity_of()}. */
  public long capacity;

  /** {@code sum_nr_running}: tasks of all classes. */
  public int nrRunning;

  /** {@code sum_h_nr_running}: fair tasks. */
  public int hNrRunning;

  /** {@code idle_cpus}. */
  public int idleCpus;

  /** {@code group_weight}. */
  public int weight;

  /** {@code group_misfit_task_load}: the largest misfit task's load, 0 for none. */
  public long misfitLoad;

  /** {@code group_asym_packing}. */
  public boolean asymPacking;

  /** {@code group_smt_balance}. */
  public boolean smtBalance;

  /** {@code sg_imbalanced()}. */
  public boolean imbalanced;

  /** {@code group_type}. */
  public int type;

  /** Clears every field. */
  public void reset() {
    avgLoad = 0;
    load = 0;
    util = 0;
    runnable = 0;
    capacity = 0;
    nrRunning = 0;
    hNrRunning = 0;
    idleCpus = 0;
    weight = 0;
    misfitLoad = 0;
    asymPacking = false;
    smtBalance = false;
    imbalanced = false;
    type = HAS_SPARE;
  }

  /** Copies every field of {@code o}. */
  public void copyFrom(GroupStats o) {
    avgLoad = o.avgLoad;
    load = o.load;
    util = o.util;
    runnable = o.runnable;
    capacity = o.capacity;
    nrRunning = o.nrRunning;
    hNrRunning = o.hNrRunning;
    idleCpus = o.idleCpus;
    weight = o.weight;
    misfitLoad = o.misfitLoad;
    asymPacking = o.asymPacking;
    smtBalance = o.smtBalance;
    imbalanced = o.imbalanced;
    type = o.type;
  }

  /** {@code group_has_capacity()}. */
  public boolean hasCapacity(int imbalancePct) {
    if (nrRunning < weight) {
      return true;
    }
    if (capacity * imbalancePct < runnable * 100) {
      return false;
    }
    return capacity * 100 > util * imbalancePct;
  }

  /** {@code group_is_overloaded()}. */
  public boolean isOverloaded(int imbalancePct) {
    if (nrRunning <= weight) {
      return false;
    }
    if (capacity * 100 < util * imbalancePct) {
      return true;
    }
    return capacity * imbalancePct < runnable * 100;
  }

  /** {@code group_classify()}: sets and returns {@link #type}. */
  public int classify(int imbalancePct) {
    if (isOverloaded(imbalancePct)) {
      type = OVERLOADED;
    } else if (imbalanced) {
      type = IMBALANCED;
    } else if (asymPacking) {
      type = ASYM_PACKING;
    } else if (smtBalance) {
      type = SMT_BALANCE;
    } else if (misfitLoad != 0) {
      type = MISFIT_TASK;
    } else if (!hasCapacity(imbalancePct)) {
      type = FULLY_BUSY;
    } else {
      type = HAS_SPARE;
    }
    return type;
  }
}
