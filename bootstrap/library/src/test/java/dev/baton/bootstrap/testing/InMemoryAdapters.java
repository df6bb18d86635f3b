package dev.baton.bootstrap.testing;

import dev.baton.application.port.out.AuditTrail;
import dev.baton.application.testing.InMemoryAuditTrail;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryScheduleFires;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.bootstrap.wiring.Adapters;
import dev.baton.bootstrap.wiring.HealthCheck;
import dev.baton.bootstrap.wiring.Ledger;
import dev.baton.bootstrap.wiring.Transport;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** The in-memory adapters, to run Baton on instead of Redis and PostgreSQL: {@code builder.adapters(...)}. */
public final class InMemoryAdapters {
    private final InMemoryExecutionLedger ledger;
    private final InMemoryAuditTrail auditTrail = new InMemoryAuditTrail();
    private final Transport transport;

    public InMemoryAdapters(Clock clock) {
        InMemoryStreamTransport streams = new InMemoryStreamTransport(clock);
        this.ledger = new InMemoryExecutionLedger(clock);
        this.transport = new Transport(streams, streams, streams, streams, streams, streams,
                new InMemoryScheduleFires(streams));
    }

    /** The ports, for {@code Baton.builder().adapters(...)}. */
    public Adapters ports() {
        return new Adapters(transport, ledgerPorts());
    }

    /** The ports, with {@code check} behind {@code /health/ready}. */
    public Adapters ports(HealthCheck check) {
        return new Adapters(transport, ledgerPorts(), List.of(check));
    }

    /** The ports with {@code trail} as the audit trail, or none (as in at-least-once mode). */
    public Adapters ports(Optional<AuditTrail> trail) {
        return new Adapters(transport, new Ledger(ledger, ledger, trail, () -> { }));
    }

    private Ledger ledgerPorts() {
        return new Ledger(ledger, ledger, Optional.of(auditTrail), () -> { });
    }

    public InMemoryExecutionLedger ledger() {
        return ledger;
    }

    public InMemoryAuditTrail auditTrail() {
        return auditTrail;
    }
}
