package dev.baton.adapters.postgres.archfixture;

/** Broken on purpose: only the CLI writes to the console. */
public class PostgresAdapterPrinting {
    void print() {
        System.out.println("job done");
    }
}
