<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

use ContactVerify\ErrorCode;

/** No answer came: refused, reset or timed out (status 0, NETWORK_ERROR). Never retried. */
final class ConnectionException extends ApiException
{
    public function __construct(string $message, ?\Throwable $previous = null)
    {
        parent::__construct(0, ErrorCode::NetworkError->value, $message, [], null, $previous);
    }
}
