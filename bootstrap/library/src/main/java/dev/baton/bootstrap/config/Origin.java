package dev.baton.bootstrap.config;

/** Where a configuration's values came from, so that a rule's failure names the value as its source spells it. */
interface Origin {
    /** Whether this source gave the setting (a layer over a base may give only some). */
    boolean gave(Setting<?> setting);

    /** The setting as this source names it: {@code BATON_LEASE}, {@code LEASE}, {@code baton.lease}. */
    String name(Setting<?> setting);

    /** The failure of the setting's value, naming it and where it came from. */
    ConfigException invalid(Setting<?> setting, String problem);
}
