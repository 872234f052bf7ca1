package dev.ryow.spring.boot.tests;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the {@code ryow.*} settings a test class is about, the only ones it may change from the
 * driver's defaults (the rule is {@code ItSettingsRuleTest} in the integration-test module, which scans
 * this module too): the tests prove what users get when they change nothing else.
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
