import { Module } from '@nestjs/common';
import { AccountsService } from './accounts.service.js';
import { PasswordHasher } from './password-hasher.js';

/** The dashboard's people: accounts, scrypt password hashes behind the hashing gate, sign-in throttling. */
@Module({
  providers: [AccountsService, PasswordHasher],
  exports: [AccountsService, PasswordHasher],
})
export class AccountsModule {}
