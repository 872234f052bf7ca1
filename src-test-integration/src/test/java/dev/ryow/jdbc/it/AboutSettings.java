package dev.ryow.jdbc.it;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the {@code ryow.*} settings a test class is about, the only ones it may change from the
 * driver's defaults ({@link ItSettingsRuleTest} enforces it): the integration tests prove what users
 * get when they swap the URL and change nothing else.
 */
@Documented
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.TYPE)
@interface AboutSettings {
  /** The settings, e.g. {@code "ryow.consistency"}. */
  String[] value();

  /** Why the class changes them: what it proves about each. */
  String why();
}
