package dev.ryow.jdbc.web;

import dev.ryow.jdbc.ConsistencyScope;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import org.jspecify.annotations.Nullable;

/**
 * A response that writes the consistency token header at the last moment it still can: before the
 * first byte of the body, a flush, an error or a redirect commits it.
 */
final class TokenResponse extends HttpServletResponseWrapper {
  private final HttpServletResponse response;
  private final ConsistencyScope scope;
  private final RyowConsistencyFilter filter;
  private final @Nullable String incoming;
  private final @Nullable String header;
  private boolean tokenWritten;
  private @Nullable ServletOutputStream stream;
  private @Nullable PrintWriter writer;

  TokenResponse(
      HttpServletResponse response, ConsistencyScope scope, RyowConsistencyFilter filter, @Nullable String incoming,
      @Nullable String header) {
    super(response);
    this.response = response;
    this.scope = scope;
    this.filter = filter;
    this.incoming = incoming;
    this.header = header;
  }

  /** Sets the token header (and cookie) unless the response is already committed (then the trailer carries it). */
  void beforeCommit() {
    if (!tokenWritten) {
      tokenWritten = true;
      filter.writeToken(response, scope, incoming, header);
    }
  }

  @Override
  public void flushBuffer() throws IOException {
    beforeCommit();
    super.flushBuffer();
  }

  @Override
  public void sendError(int sc) throws IOException {
    beforeCommit();
    super.sendError(sc);
  }

  @Override
  public void sendError(int sc, String msg) throws IOException {
    beforeCommit();
    super.sendError(sc, msg);
  }

  @Override
  public void sendRedirect(String location) throws IOException {
    beforeCommit();
    super.sendRedirect(location);
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    ServletOutputStream s = stream;
    if (s == null) {
      s = new TokenOutputStream(super.getOutputStream());
      stream = s;
    }
    return s;
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    PrintWriter w = writer;
    if (w == null) {
      w = new TokenWriter(super.getWriter());
      writer = w;
    }
    return w;
  }

  /** The container's writer, unbuffered in between: the first write or flush sets the header first. */
  private final class TokenWriter extends PrintWriter {
    TokenWriter(PrintWriter delegate) {
      super(delegate, false);
    }

    @Override
    public void write(int c) {
      beforeCommit();
      super.write(c);
    }

    @Override
    public void write(char[] buf, int off, int len) {
      beforeCommit();
      super.write(buf, off, len);
    }

    @Override
    public void write(String s, int off, int len) {
      beforeCommit();
      super.write(s, off, len);
    }

    @Override
    public void flush() {
      beforeCommit();
      super.flush();
    }

    @Override
    public void close() {
      beforeCommit();
      super.close();
    }
  }

  /** The body stream: the first write or flush sets the header first. */
  private final class TokenOutputStream extends ServletOutputStream {
    private final ServletOutputStream delegate;

    TokenOutputStream(ServletOutputStream delegate) {
      this.delegate = delegate;
    }

    @Override
    public void write(int b) throws IOException {
      beforeCommit();
      delegate.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      beforeCommit();
      delegate.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      beforeCommit();
      delegate.flush();
    }

    @Override
    public void close() throws IOException {
      beforeCommit();
      delegate.close();
    }

    @Override
    public boolean isReady() {
      return delegate.isReady();
    }

    @Override
    public void setWriteListener(WriteListener listener) {
      delegate.setWriteListener(listener);
    }
  }
}
