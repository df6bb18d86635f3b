package dev.baton.domain.archfixture;

import dev.baton.application.port.in.EnqueueJobUseCase;

/** Broken on purpose: the domain must not know the application. */
public class DomainUsingApplication {
    EnqueueJobUseCase useCase;
}
