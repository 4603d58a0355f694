//! Seeded RNG, shuffling and dealing (stub until the foundation helper lands it).
