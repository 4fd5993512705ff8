<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

/** TOO_MANY_ATTEMPTS: the code's attempts are used up; send a new code. Never retried. */
final class TooManyAttemptsException extends ClientException
{
}
