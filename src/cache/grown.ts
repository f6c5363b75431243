/** `array` copied into one at least `length` long (twice as long, or more), the rest `fill`. */
export function grown(array: Int32Array, length: number, fill = 0): Int32Array {
  const next = new Int32Array(Math.max(length, array.length * 2));
  next.set(array);
  if (fill !== 0) next.fill(fill, array.length);
  return next;
}
