<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

/**
 * Every exception of the library implements this: catch it to handle them all.
 *
 *     ContactVerifyException (interface)
 *     ├── ApiException                 status, error code, details, Retry-After
 *     │   ├── ConnectionException      no answer (status 0, NETWORK_ERROR)
 *     │   ├── ClientException          4xx: the request must change
 *     │   │   ├── AuthenticationException   UNAUTHORIZED
 *     │   │   ├── NotFoundException         NOT_FOUND
 *     │   │   ├── RateLimitedException      RATE_LIMITED: wait getRetryAfter() seconds
 *     │   │   └── TooManyAttemptsException  TOO_MANY_ATTEMPTS: send a new code
 *     │   └── ServerException          5xx, once the retries are spent
 *     └── NoOutboxCodeException        TestHelper found no code to read
 */
interface ContactVerifyException extends \Throwable
{
}
