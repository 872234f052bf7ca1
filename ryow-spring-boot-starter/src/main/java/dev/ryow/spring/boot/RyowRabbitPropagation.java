package dev.ryow.spring.boot;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.messaging.MessageTokens;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessagePostProcessor;

/**
 * Read-your-writes through RabbitMQ with Spring AMQP, the lines of {@link MessageTokens} done for the
 * application. {@link #beforePublish()}, for {@code RabbitTemplate.addBeforePublishPostProcessors}, adds the
 * current scope's token to each message sent from a thread with an open scope. On the listener side two
 * parts work together on the listener thread: {@link #afterReceive()} (an after-receive post-processor)
 * opens a scope with the received message's token before the listener runs, and {@link #listenerAdvice()}
 * (in the container's advice chain, around each delivery) closes it when the delivery is done, whether the
 * listener returned or threw. {@link RyowRabbitAutoConfiguration} installs them. A consumer batch
 * ({@code consumerBatchEnabled}) runs in the scope of its last message.
 */
public final class RyowRabbitPropagation {
  private final MessageTokens tokens;
  /** The scope opened on this listener thread, until the delivery is done. */
  private static final ThreadLocal<@Nullable ConsistencyScope> OPEN = new ThreadLocal<>();

  /** Propagation with {@code tokens}' codec and header. */
  public RyowRabbitPropagation(MessageTokens tokens) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  /** The header and codec. */
  public MessageTokens tokens() {
    return tokens;
  }

  /** Adds the current scope's token, unless the message already has the header (the application's own wins). */
  public MessagePostProcessor beforePublish() {
    return new MessagePostProcessor() {
      @Override
      public Message postProcessMessage(Message message) {
        if (message.getMessageProperties().getHeader(tokens.header()) == null) {
          String token = tokens.outgoing();
          if (token != null) {
            message.getMessageProperties().setHeader(tokens.header(), token);
          }
        }
        return message;
      }

      @Override
      public String toString() {
        return "RyowRabbitBeforePublish[" + tokens + "]";
      }
    };
  }

  /**
   * Opens a scope with the message's token (an empty scope without one, or with one the codec rejects, as
   * {@link MessageTokens#open(String)}), closing one still open on this thread first.
   */
  public MessagePostProcessor afterReceive() {
    return new MessagePostProcessor() {
      @Override
      public Message postProcessMessage(Message message) {
        closeOpen();
        OPEN.set(tokens.open(text(message.getMessageProperties().getHeader(tokens.header()))));
        return message;
      }

      @Override
      public String toString() {
        return "RyowRabbitAfterReceive[" + tokens + "]";
      }
    };
  }

  /** Closes the scope {@link #afterReceive()} opened, when the container's delivery returns or throws. */
  public MethodInterceptor listenerAdvice() {
    return new MethodInterceptor() {
      @Override
      public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        try {
          return invocation.proceed();
        } finally {
          closeOpen();
        }
      }

      @Override
      public String toString() {
        return "RyowRabbitListenerAdvice[" + tokens + "]";
      }
    };
  }

  /** Whether a scope opened by {@link #afterReceive()} is still open on this thread (for tests). */
  boolean scopeOpenHere() {
    return OPEN.get() != null;
  }

  private static @Nullable String text(@Nullable Object header) {
    if (header == null) {
      return null;
    }
    if (header instanceof byte[] bytes) {
      return new String(bytes, StandardCharsets.US_ASCII);
    }
    return header.toString();
  }

  private static void closeOpen() {
    ConsistencyScope scope = OPEN.get();
    if (scope != null) {
      OPEN.remove();
      scope.close();
    }
  }
}
