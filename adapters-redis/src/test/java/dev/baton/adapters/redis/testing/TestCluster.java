package dev.baton.adapters.redis.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * A private Redis Cluster on loopback: three masters and three replicas started from the {@code redis-server} on the
 * PATH, on free ports, without persistence, joined with {@code redis-cli --cluster create}. A test may kill its nodes.
 * {@link #close} kills every process and deletes the temporary directories. Never touches the shared server.
 */
public final class TestCluster implements AutoCloseable {
    /** Short, so a killed master's replica takes over within a few seconds. */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(2000);
    /** Nodes on 20000–22767, their buses on 30000–32767: both below Linux's ephemeral range (from 32768). */
    private static final int LOWEST_PORT = 20_000;
    private static final int BUS_OFFSET = 10_000;
    private static final int EPHEMERAL_START = 32_768;
    private static TestCluster shared;

    private final List<Node> nodes;

    private record Node(int port, Path dir, Process process) {
    }

    private TestCluster(List<Node> nodes) {
        this.nodes = nodes;
    }

    /** One cluster for every test class of this JVM that does not kill nodes; torn down when the JVM exits. */
    public static synchronized TestCluster shared() {
        if (shared == null) {
            shared = start();
            TestCluster cluster = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close));
        }
        return shared;
    }

    /**
     * Starts six nodes and joins them as three masters with one replica each; returns when every node reports
     * {@code cluster_state:ok} and every replica is in sync.
     *
     * @throws IllegalStateException when the cluster cannot be started, saying why
     */
    public static TestCluster start() {
        return start(freePorts());
    }

    /** Six free ports, for a cluster that a test starts later ({@link #start(List)}): nothing listens there yet. */
    public static List<Integer> freePorts() {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < 6) {
            int port = freePort();
            if (!ports.contains(port)) {
                ports.add(port);
            }
        }
        return ports;
    }

    /** {@link #start()} on the given six ports. */
    public static TestCluster start(List<Integer> ports) {
        List<Node> nodes = new ArrayList<>();
        TestCluster cluster = new TestCluster(nodes);
        try {
            for (int port : ports) {
                Path dir = Files.createTempDirectory("baton-cluster-" + port + "-");
                Process process = new ProcessBuilder("redis-server", "--port", Integer.toString(port),
                        "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                        "--cluster-config-file", dir.resolve("nodes.conf").toString(),
                        "--cluster-node-timeout", Long.toString(NODE_TIMEOUT.toMillis()),
                        "--dir", dir.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no")
                        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
                nodes.add(new Node(port, dir, process));
            }
            for (Node node : nodes) {
                Awaitility.await("redis-server on port " + node.port()).atMost(Duration.ofSeconds(20))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> answers(cluster, node));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            nodes.forEach(node -> create.add("127.0.0.1:" + node.port()));
            create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            String created = TestProcesses.run(create, Duration.ofSeconds(60));
            if (!created.contains("All 16384 slots covered")) {
                throw new IllegalStateException("redis-cli --cluster create failed: " + created);
            }
            Awaitility.await("cluster state ok and replicas in sync").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).until(cluster::healthy);
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw new IllegalStateException("cannot start a Redis Cluster from redis-server/redis-cli on the PATH: "
                    + e.getMessage(), e);
        }
    }

    /** Whether the node answers PING; a node that exited (its port taken after all) fails at once with its log. */
    private static boolean answers(TestCluster cluster, Node node) throws IOException {
        if (!node.process().isAlive()) {
            throw new IllegalStateException("redis-server on port " + node.port() + " exited: "
                    + Files.readString(node.dir().resolve("redis.log")));
        }
        return cluster.cli(node.port(), "PING").contains("PONG");
    }

    /** The first node's URI (a seed). */
    public String uri() {
        return "redis://127.0.0.1:" + nodes.get(0).port();
    }

    /** Every node as {@code host:port,...}, as {@code BATON_REDIS_CLUSTER_NODES} takes them. */
    public String clusterNodes() {
        return nodes.stream().map(node -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
    }

    /** The ports of the nodes that are masters now (as the live nodes see it). */
    public List<Integer> masterPorts() {
        return liveNodes().filter(node -> cli(node.port(), "ROLE").startsWith("master"))
                .map(Node::port).toList();
    }

    /** The port of the master serving {@code slot} now. */
    public int masterOf(int slot) {
        for (String line : cli(liveNodes().findFirst().orElseThrow().port(), "CLUSTER", "NODES").split("\n")) {
            String[] parts = line.trim().split(" ");
            if (parts.length < 9 || !parts[2].contains("master") || parts[2].contains("fail")) {
                continue;
            }
            for (int i = 8; i < parts.length; i++) {
                String[] range = parts[i].split("-");
                int from = Integer.parseInt(range[0]);
                int to = Integer.parseInt(range[range.length - 1]);
                if (slot >= from && slot <= to) {
                    return Integer.parseInt(parts[1].substring(parts[1].indexOf(':') + 1, parts[1].indexOf('@')));
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }

    /** Kills the node on {@code port} with SIGKILL, as a crash would. */
    public void kill(int port) {
        Node node = nodes.stream().filter(n -> n.port() == port).findFirst().orElseThrow();
        TestProcesses.kill(node.process());
    }

    /** Every live node says {@code cluster_state:ok} and every live replica's link to its master is up. */
    public boolean healthy() {
        return liveNodes().allMatch(node -> cli(node.port(), "CLUSTER", "INFO").contains("cluster_state:ok")
                && (!cli(node.port(), "ROLE").startsWith("slave")
                || cli(node.port(), "INFO", "replication").contains("master_link_status:up")));
    }

    /** Every live master's replicas have received all it wrote (replication offsets equal). */
    public boolean replicated() {
        return liveNodes().filter(node -> cli(node.port(), "ROLE").startsWith("master")).allMatch(node -> {
            String info = cli(node.port(), "INFO", "replication");
            String offset = field(info, "master_repl_offset");
            return info.contains("connected_slaves:1") && info.contains("offset=" + offset + ",");
        });
    }

    /** Runs a command on one node with redis-cli and returns its output. */
    public String cli(int port, String... command) {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        args.addAll(List.of(command));
        return TestProcesses.run(args, Duration.ofSeconds(20));
    }

    private Stream<Node> liveNodes() {
        return nodes.stream().filter(node -> node.process().isAlive());
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return "";
    }

    @Override
    public void close() {
        nodes.forEach(node -> node.process().destroyForcibly());
        nodes.forEach(node -> {
            TestProcesses.kill(node.process());
            TestProcesses.delete(node.dir());
        });
    }

    /**
     * A port whose cluster bus ({@code port + 10000}) is free too, both below the kernel's ephemeral range (32768 and
     * up on Linux): a port from that range can be taken by any outgoing connection between this check and the node's
     * start, which a build with modules side by side makes likely.
     */
    private static int freePort() {
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = LOWEST_PORT + ThreadLocalRandom.current().nextInt(EPHEMERAL_START - BUS_OFFSET - LOWEST_PORT);
            try (ServerSocket node = new ServerSocket(port); ServerSocket bus = new ServerSocket(port + BUS_OFFSET)) {
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new IllegalStateException("no free port pair (port, port + 10000) for a cluster node");
    }
}
