// Empty on purpose: the start-up floor times Node running a script file and nothing else.
