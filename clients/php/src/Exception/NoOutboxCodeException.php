<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

/**
 * TestHelper::latestOutboxCode() found no code: no message to that address, or its request was not
 * made with a test key or has left pending.
 */
final class NoOutboxCodeException extends \RuntimeException implements ContactVerifyException
{
}
