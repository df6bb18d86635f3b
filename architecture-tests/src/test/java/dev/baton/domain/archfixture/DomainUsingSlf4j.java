package dev.baton.domain.archfixture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Broken on purpose: the domain depends on nothing but the JDK. */
public class DomainUsingSlf4j {
    static final Logger LOG = LoggerFactory.getLogger(DomainUsingSlf4j.class);
}
