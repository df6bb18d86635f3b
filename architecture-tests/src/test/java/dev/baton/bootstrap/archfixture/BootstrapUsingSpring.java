package dev.baton.bootstrap.archfixture;

import org.springframework.context.SmartLifecycle;

/** Breaks the Spring rule: bootstrap code outside dev.baton.bootstrap.spring that needs a Spring type. */
public abstract class BootstrapUsingSpring implements SmartLifecycle {
}
