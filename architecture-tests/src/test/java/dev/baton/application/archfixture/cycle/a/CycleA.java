package dev.baton.application.archfixture.cycle.a;

import dev.baton.application.archfixture.cycle.b.CycleB;

/** Broken on purpose: half of a package cycle. */
public class CycleA {
    CycleB other;
}
