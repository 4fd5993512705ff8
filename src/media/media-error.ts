/** Why a call's media ended before its audio was played. */
export class MediaError extends Error {
  constructor(
    readonly reason: 'not_connected' | 'connection_lost' | 'closed' | 'bad_answer',
    message: string,
  ) {
    super(message);
  }
}
