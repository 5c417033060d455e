/** The arcos of the nested-route demo: a list on the left, the chosen one on the right. */
export const ARCO_IDS = Array.from({ length: 12 }, (_, i) => String(i + 1));
