set terminal postscript enhanced color
set output 'periodic-light.eps'
set grid
set key outside right
set title "Measured light Loop stats"
set xlabel "Loop start time [msec]"
set ylabel "Run Time [msec]"
set y2label "Load [nb loop]"
set y2tics  
plot "periodic-light-0.log" u ($5/1000000):2 w l title "load " axes x1y2, "periodic-light-0.log" u ($5/1000000):3 w l title "run ", "periodic-light-0.log" u ($5/1000000):4 w l title "period " 
set terminal wxt
replot
