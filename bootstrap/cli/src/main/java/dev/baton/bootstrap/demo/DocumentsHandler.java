package dev.baton.bootstrap.demo;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.NamedJobHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Demo: splits a document (the payload text) into chunks of at most {@value #CHUNK} characters, cut at whitespace,
 * and stores them in {@code demo_chunks(job_id, seq, text)} in the ledger's transaction: a redelivered document is
 * skipped by the ledger, so its chunks are never written twice.
 */
public final class DocumentsHandler implements NamedJobHandler {
    public static final String NAME = "documents";
    static final int CHUNK = 200;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> handle(JobContext context) {
        List<String> chunks = chunks(context.job().payload());
        Handle handle = context.unwrap(Handle.class);
        PreparedBatch batch = handle.prepareBatch(
                "insert into demo_chunks (job_id, seq, text) values (:job, :seq, :text)");
        for (int seq = 0; seq < chunks.size(); seq++) {
            batch.bind("job", context.job().id().value()).bind("seq", seq).bind("text", chunks.get(seq)).add();
        }
        if (!chunks.isEmpty()) {
            batch.execute();
        }
        return Optional.of(chunks.size() + " chunks");
    }

    static List<String> chunks(String text) {
        List<String> chunks = new ArrayList<>();
        String rest = text.strip();
        while (!rest.isEmpty()) {
            int end = Math.min(CHUNK, rest.length());
            if (end < rest.length()) {
                int space = rest.lastIndexOf(' ', end);
                end = space > 0 ? space : end;
            }
            chunks.add(rest.substring(0, end).strip());
            rest = rest.substring(end).strip();
        }
        return chunks;
    }
}
