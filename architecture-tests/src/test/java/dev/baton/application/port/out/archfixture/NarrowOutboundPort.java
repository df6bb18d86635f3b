package dev.baton.application.port.out.archfixture;

/** Five methods: fine on its own, too many once {@link WideOutboundPort} adds six. */
public interface NarrowOutboundPort {
    void one();

    void two();

    void three();

    void four();

    void five();
}
