/**
 * Outbound ports: what the application needs from outside, grouped by capability in domain words (the stream transport,
 * the execution ledger, the outbox, the hooks), with the values they exchange. They name no technology and depend on
 * the domain only, never on {@code port.in}. Adapters implement them and translate their clients' failures into {@code
 * TransportException} or {@code LedgerUnavailableException}.
 */
package dev.baton.application.port.out;
