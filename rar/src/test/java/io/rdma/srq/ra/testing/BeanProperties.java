package io.rdma.srq.ra.testing;

/** Sets text properties of a JavaBean by name, as the container sets activation-config and config properties. */
public final class BeanProperties {
    private BeanProperties() {
    }

    /**
     * @param bean       the bean (an activation spec, a managed connection factory)
     * @param properties names and values, alternating: {@code "srqMaxWr", "16", "listen", "false"}
     * @param <T>        its type
     * @return the bean
     * @throws Exception when a setter {@code setName(String)} is missing or throws
     */
    public static <T> T set(T bean, String... properties) throws Exception {
        for (int i = 0; i < properties.length; i += 2) {
            String p = properties[i];
            bean.getClass().getMethod("set" + Character.toUpperCase(p.charAt(0)) + p.substring(1), String.class)
                    .invoke(bean, properties[i + 1]);
        }
        return bean;
    }
}
