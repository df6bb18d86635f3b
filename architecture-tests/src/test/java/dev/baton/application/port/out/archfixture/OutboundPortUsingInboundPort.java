package dev.baton.application.port.out.archfixture;

import dev.baton.application.port.in.RunWorkerUseCase;

/** Broken on purpose: outbound ports must not know inbound ports. */
public interface OutboundPortUsingInboundPort {
    RunWorkerUseCase worker();
}
