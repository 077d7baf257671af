package io.rdma.srq.api;

import jakarta.inject.Qualifier;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Selects a connection definition by JNDI name for {@code @Inject}:
 * {@code @Inject @SrqFactory("java:/eis/Orders") SrqConnectionFactory orders;}. Without it,
 * {@code @Inject SrqConnectionFactory} gets {@value #DEFAULT}.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface SrqFactory {
    /** The JNDI name of the default connection definition, bound by the adapter's ironjacamar.xml. */
    String DEFAULT = "java:/eis/SrqConnectionFactory";

    /** {@return the JNDI name of the connection definition} */
    @jakarta.enterprise.util.Nonbinding
    String value() default DEFAULT;
}
