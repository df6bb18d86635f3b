package dev.baton.application.port.in.archfixture;

import dev.baton.application.port.out.JobLeases;

/** Broken on purpose: inbound ports must not know outbound ports. */
public interface InboundPortUsingOutboundPort {
    JobLeases leases();
}
