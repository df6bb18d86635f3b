package dev.baton.application.port.out.archfixture;

/** Broken on purpose: eleven methods, five of them inherited, are more than one port should carry. */
public interface WideOutboundPort extends NarrowOutboundPort {
    void six();

    void seven();

    void eight();

    void nine();

    void ten();

    void eleven();
}
