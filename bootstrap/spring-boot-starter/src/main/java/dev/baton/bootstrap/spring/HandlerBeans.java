package dev.baton.bootstrap.spring;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.bootstrap.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The application's handler beans by handler name: a {@link NamedJobHandler}'s (e.g. {@code JobType.handledBy}) is
 * its {@code name()}, any other {@link JobHandler}'s is its bean name. With the application's {@code DataSource},
 * each runs with the ledger's transaction bound for Spring ({@link LedgerTransactionBinding}).
 */
final class HandlerBeans {
    private HandlerBeans() {
    }

    /** @throws ConfigException when two beans claim one handler name: which one ran would be an accident */
    static Map<String, JobHandler> byName(Map<String, JobHandler> beans, Optional<DataSource> dataSource) {
        Map<String, JobHandler> handlers = new LinkedHashMap<>();
        Map<String, String> beanOf = new LinkedHashMap<>();
        beans.forEach((bean, handler) -> {
            String name = handler instanceof NamedJobHandler named ? named.name() : bean;
            String other = beanOf.putIfAbsent(name, bean);
            if (other != null) {
                throw new ConfigException("the beans '" + other + "' and '" + bean + "' are both the handler '"
                        + name + "': give one another name");
            }
            handlers.put(name, dataSource.<JobHandler>map(ds -> new LedgerTransactionBinding(handler, ds))
                    .orElse(handler));
        });
        return handlers;
    }
}
