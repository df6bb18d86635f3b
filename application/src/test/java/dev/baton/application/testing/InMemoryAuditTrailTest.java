package dev.baton.application.testing;

import dev.baton.application.port.out.AuditTrail;

class InMemoryAuditTrailTest extends AuditTrailContract {
    @Override
    protected AuditTrail createEmptyTrail() {
        return new InMemoryAuditTrail();
    }
}
