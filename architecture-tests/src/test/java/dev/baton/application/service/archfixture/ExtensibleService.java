package dev.baton.application.service.archfixture;

/** Broken on purpose: services are final. */
public class ExtensibleService {
}
