export const PRODUCT_NAME = 'Qoala';
