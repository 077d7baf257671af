package io.rdma.srq.ra;

import io.rdma.srq.api.SrqConnectionFactory;
import io.rdma.srq.api.SrqFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;

import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Makes {@code @Inject SrqConnectionFactory} (the default definition, {@value SrqFactory#DEFAULT})
 * and {@code @Inject @SrqFactory("java:/eis/Other") SrqConnectionFactory} work: the factory is looked
 * up in JNDI where the container bound it.
 */
@ApplicationScoped
public class SrqConnectionFactoryProducer {

    /**
     * @return the default connection factory
     * @throws NamingException if the default definition is not bound
     */
    @Produces
    @Default
    public SrqConnectionFactory defaultFactory() throws NamingException {
        return lookup(SrqFactory.DEFAULT);
    }

    /**
     * @param ip the injection point carrying the qualifier
     * @return the factory bound at the qualifier's JNDI name
     * @throws NamingException if nothing is bound there
     */
    @Produces
    @SrqFactory
    public SrqConnectionFactory namedFactory(InjectionPoint ip) throws NamingException {
        String name = ip.getQualifiers().stream().filter(SrqFactory.class::isInstance).map(SrqFactory.class::cast)
                .findFirst().map(SrqFactory::value).orElse(SrqFactory.DEFAULT);
        return lookup(name);
    }

    private static SrqConnectionFactory lookup(String name) throws NamingException {
        InitialContext ctx = new InitialContext();
        try {
            return (SrqConnectionFactory) ctx.lookup(name);
        } finally {
            ctx.close();
        }
    }
}
