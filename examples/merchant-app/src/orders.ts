// The shop's orders, in memory: what a database table would hold.

/** Where an order is in its life. */
export type OrderStatus = 'awaiting_payment' | 'paid' | 'payment_failed';

/** One order. */
export interface Order {
  id: string;
  amount: number;
  currency: string;
  status: OrderStatus;
  paymentId?: string;
  /** How many times a webhook moved it to `paid` (1 at most, whatever the deliveries). */
  timesMarkedPaid: number;
}

/**
 * A store of orders, looked up by id or by their payment's id.
 *
 * @example
 * const orders = createOrderStore();
 * orders.add({ id: 'order-1', amount: 1000, currency: 'KZT' });
 */
export function createOrderStore() {
  const byId = new Map<string, Order>();
  return {
    add(fields: Pick<Order, 'id' | 'amount' | 'currency'>): Order {
      const order: Order = { ...fields, status: 'awaiting_payment', timesMarkedPaid: 0 };
      byId.set(order.id, order);
      return order;
    },
    get: (id: string) => byId.get(id),
    byPayment: (paymentId: string) =>
      [...byId.values()].find((order) => order.paymentId === paymentId),
    all: () => [...byId.values()],
  };
}

/** The order store's type. */
export type OrderStore = ReturnType<typeof createOrderStore>;
