"""Run stage: the Machine that steps a compiled program, its World, and the seeded
random streams."""
