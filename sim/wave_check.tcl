# GTKWave script mode (sim/waves.sh: gtkwave -S sim/wave_check.tcl FILE.gtkw under
# Xvfb): prints what the save file made GTKWave show (the signals it could load,
# the marker, the window), then quits.
set sigs [gtkwave::getDisplayedSignals]
puts "WAVECHECK signals [llength $sigs]"
puts "WAVECHECK marker [gtkwave::getMarker]"
puts "WAVECHECK window [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime]"
puts "WAVECHECK facs [gtkwave::getNumFacs]"
gtkwave::/File/Quit
