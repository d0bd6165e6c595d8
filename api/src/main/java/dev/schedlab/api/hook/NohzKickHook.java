package dev.schedlab.api.hook;

/**
 * H7: the {@code out:} stage of {@code nohz_balancer_kick()}, where NEXT_KICK is OR-ed into the
 * flags.
 */
@FunctionalInterface
public interface NohzKickHook {
  /** Mainline: ask for a NEXT kick while {@code nohz.needs_update} is set. */
  NohzKickHook MAINLINE =
      (cpu, nohz, flags) -> nohz.needsUpdate() ? flags | NohzControl.NEXT_KICK : flags;

  /** The kick flags to pass to {@code kick_ilb()} (0 for no kick). */
  int kickFlags(int cpu, NohzControl nohz, int flags);
}
