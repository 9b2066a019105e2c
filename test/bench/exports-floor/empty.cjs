// Empty on purpose: the floors time Node alone, as a script file and as a module taken through
// an exports map.
