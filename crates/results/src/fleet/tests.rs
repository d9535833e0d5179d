//! The fleet's rules on rows made here: healthy runs, a slowed memory, flagged rows, a machine.
