package dev.ryow.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP forwarder that adds a fixed one-way delay in each direction, standing in for a network
 * (this machine's kernel has no {@code netem}): it listens on 127.0.0.1 and forwards every
 * connection to one server. Each direction of each connection has a reader that stamps every chunk
 * it reads with the time it may leave, and a writer that sends the chunks in order once that time
 * has come, so that the delay adds to latency without limiting throughput, and bytes are never
 * reordered. With a delay of 0 it only forwards (and counts).
 *
 * <p>It counts <em>round trips</em>: a client-to-server flight is data from the client after the
 * server last sent something (or the first data of a connection). A client that waits for each
 * answer makes one flight per statement; statements pipelined in one flight count once, as they
 * cost one network round trip. TLS does not matter: nothing is parsed.
 */
final class LatencyForwarder implements AutoCloseable {
  private static final int CHUNK = 64 * 1024;

  private final String targetHost;
  private final int targetPort;
  private final long delayNanos;
  private final ServerSocket listener;
  private final Thread acceptor;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final List<Socket> sockets = new ArrayList<>();
  private final LongAdder roundTrips = new LongAdder();
  private final LongAdder connections = new LongAdder();

  private LatencyForwarder(String targetHost, int targetPort, long delayNanos) throws IOException {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.delayNanos = delayNanos;
    this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::acceptLoop, "forwarder-" + targetPort);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Starts a forwarder to {@code host:port} that delays each direction by {@code oneWayMillis}. */
  static LatencyForwarder start(String hostPort, double oneWayMillis) throws IOException {
    int colon = hostPort.lastIndexOf(':');
    return new LatencyForwarder(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)),
        Math.round(oneWayMillis * 1_000_000));
  }

  /** Where clients connect instead of the server: {@code 127.0.0.1:port}. */
  String address() {
    return "127.0.0.1:" + listener.getLocalPort();
  }

  /** Client-to-server flights so far, over all connections (see the class comment). */
  long roundTrips() {
    return roundTrips.sum();
  }

  /** Connections accepted so far. */
  long connections() {
    return connections.sum();
  }

  private void acceptLoop() {
    while (!closed.get()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      Socket server = new Socket();
      try {
        server.connect(new InetSocketAddress(targetHost, targetPort), 5000);
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
      } catch (IOException e) {
        closeQuietly(client);
        closeQuietly(server);
        continue;
      }
      synchronized (sockets) {
        if (closed.get()) {
          closeQuietly(client);
          closeQuietly(server);
          return;
        }
        sockets.add(client);
        sockets.add(server);
      }
      connections.increment();
      // 0: nothing yet; 1: the client sent last; 2: the server sent last.
      AtomicInteger last = new AtomicInteger();
      String name = "fwd-" + targetPort + "-" + connections.sum();
      pump(client, server, last, true, name + "-c2s");
      pump(server, client, last, false, name + "-s2c");
    }
  }

  /** One chunk of bytes and when it may leave. */
  private record Chunk(byte[] bytes, int length, long due) {}

  private static final Chunk END = new Chunk(new byte[0], -1, 0);

  private void pump(Socket from, Socket to, AtomicInteger last, boolean clientToServer, String name) {
    LinkedBlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try {
        InputStream in = from.getInputStream();
        while (true) {
          byte[] buf = new byte[CHUNK];
          int n = in.read(buf);
          if (n < 0) {
            break;
          }
          long due = System.nanoTime() + delayNanos;
          if (clientToServer) {
            if (last.getAndSet(1) != 1) {
              roundTrips.increment();
            }
          } else {
            last.set(2);
          }
          queue.add(new Chunk(buf, n, due));
        }
      } catch (IOException e) {
        // the peer or close() ended the connection
      } finally {
        queue.add(END);
      }
    }, name + "-read");
    Thread writer = new Thread(() -> {
      try {
        OutputStream out = to.getOutputStream();
        while (true) {
          Chunk c = queue.take();
          if (c == END) {
            break;
          }
          waitUntil(c.due);
          out.write(c.bytes, 0, c.length);
          out.flush();
        }
        to.shutdownOutput();
      } catch (IOException | InterruptedException e) {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, name + "-write");
    reader.setDaemon(true);
    writer.setDaemon(true);
    reader.start();
    writer.start();
  }

  /** Parks until {@code due}; the wake-up comes a little late (timer slack, a busy machine), never early. */
  private static void waitUntil(long due) {
    long left;
    while ((left = due - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    closeQuietly(listener);
    synchronized (sockets) {
      for (Socket s : sockets) {
        closeQuietly(s);
      }
      sockets.clear();
    }
    try {
      acceptor.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (SocketException ignored) {
      // already closed
    } catch (Exception ignored) {
      // nothing left to release
    }
  }
}
