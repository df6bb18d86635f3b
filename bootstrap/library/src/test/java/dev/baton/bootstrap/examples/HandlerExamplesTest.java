package dev.baton.bootstrap.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The examples of docs/HANDLERS.md, run against real Redis and PostgreSQL. */
class HandlerExamplesTest {

    @Test
    void theShopShipsEachOrderOnceAndDeadLettersABadOne() throws Exception {
        String schema = TestEndpoints.unique("shop");
        try (ShopApplication shop = new ShopApplication(TestEndpoints.redisUri(), TestEndpoints.jdbcUrl(), schema)) {
            RunningWorker worker = shop.startWorker();
            // the queue lives on a shared Redis: this run's orders carry their own prefix
            String run = TestEndpoints.unique("run");
            shop.producer().orderPlaced(run + "-1", false);
            shop.producer().orderPlaced(run + "-2", true);
            shop.producer().orderPlaced(run + "-2", true); // placed twice: shipped once
            shop.baton().enqueue(QueueName.of("shop-orders"), JobId.of("ship-" + run + "-bad"), "{\"express\": true}");
            Job reminder = shop.producer().remindLater(run + "-1");

            await().atMost(Duration.ofSeconds(30)).until(() -> worker.counters().completed()
                    + worker.counters().duplicates() == 3 && worker.counters().deadLettered() == 1);

            assertThat(reminder.notBefore()).isPresent();
            try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
                 ResultSet rows = connection.createStatement().executeQuery("select carrier from " + schema
                         + ".shop_shipments where order_id like '" + run + "%' order by order_id")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo("post");
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo("courier");
                assertThat(rows.next()).isFalse();
            }
            assertThat(shop.baton().use(ListDeadLettersUseCase.class)
                    .list(new ListDeadLettersUseCase.Command(QueueName.of("shop-orders"), Optional.empty(), 1000))
                    .stream().filter(letter -> letter.letter().jobId().orElse("").startsWith("ship-" + run))
                    .map(letter -> letter.letter().reason()))
                    .containsExactly(DeadLetterReason.NON_RETRYABLE);
            assertThat(shop.baton().use(InspectQueueUseCase.class)
                    .inspect(new InspectQueueUseCase.Command(QueueName.of("shop-orders"))).completed())
                    .hasValue(2);
        }
    }

    @Test
    void handlersAreFoundByServiceLoaderAndInAHandlerLibrary() {
        try (Baton baton = ShopHandlers.register(Baton.builder()).build()) {
            assertThat(baton.handlers().names()).contains("shop-orders", "shop-audit");
        }
    }
}
