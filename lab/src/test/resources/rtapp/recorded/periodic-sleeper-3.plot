set terminal postscript enhanced color
set output 'periodic-sleeper.eps'
set grid
set key outside right
set title "Measured sleeper Loop stats"
set xlabel "Loop start time [msec]"
set ylabel "Run Time [msec]"
set y2label "Load [nb loop]"
set y2tics  
plot "periodic-sleeper-3.log" u ($5/1000000):2 w l title "load " axes x1y2, "periodic-sleeper-3.log" u ($5/1000000):3 w l title "run ", "periodic-sleeper-3.log" u ($5/1000000):4 w l title "period " 
set terminal wxt
replot
