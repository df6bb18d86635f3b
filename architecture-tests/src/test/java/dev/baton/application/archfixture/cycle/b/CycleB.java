package dev.baton.application.archfixture.cycle.b;

import dev.baton.application.archfixture.cycle.a.CycleA;

/** Broken on purpose: the other half of a package cycle. */
public class CycleB {
    CycleA other;
}
