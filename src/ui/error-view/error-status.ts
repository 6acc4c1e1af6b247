/** The HTTP status an error carries, if it names a valid one; 500 otherwise. */
export function statusOfError(error: unknown): number {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
}
