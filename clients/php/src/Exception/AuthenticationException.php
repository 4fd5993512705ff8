<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

/** UNAUTHORIZED: a wrong or revoked key. */
final class AuthenticationException extends ClientException
{
}
