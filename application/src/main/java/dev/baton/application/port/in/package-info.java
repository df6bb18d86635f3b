/**
 * Inbound ports: one use case per interface, named {@code VerbNounUseCase}, with one method and, when it takes input, a
 * nested {@code Command} record that validates itself. They depend on the domain only, never on {@code port.out} or on
 * the services that implement them.
 */
package dev.baton.application.port.in;
