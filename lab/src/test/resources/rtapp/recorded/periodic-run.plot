set terminal postscript enhanced color
set output 'periodic-run.eps'
set grid
set key outside right
set title "Measured run time per loop"
set xlabel "Loop start time [usec]"
set ylabel "Run Time [usec]"
plot "periodic-light-0.log" u ($5/1000):3 w l title "thread [light] (SCHED_OTHER)", "periodic-heavy-1.log" u ($5/1000):3 w l title "thread [heavy] (SCHED_OTHER)", "periodic-waker-2.log" u ($5/1000):3 w l title "thread [waker] (SCHED_OTHER)", "periodic-sleeper-3.log" u ($5/1000):3 w l title "thread [sleeper] (SCHED_OTHER)"
set terminal wxt
replot
