package dev.baton.domain.archfixture;

import org.flywaydb.core.Flyway;

/** Broken on purpose: Flyway belongs to the Postgres adapter. */
public class DomainUsingFlyway {
    Flyway flyway;
}
