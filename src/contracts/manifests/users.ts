import { listedAccount, meView, userChange, userView } from '../accounts.js';
import { colleagueInput } from '../organisation.js';
import { pageOf, pageQuery } from '../pages.js';
import { get, patch, post } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The users module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const usersManifest = defineManifest({
  name: 'users',
  routes: {
    users: {
      /** A colleague in one's own firm. */
      invite: post('/api/users', {
        body: colleagueInput,
        answer: userView,
        example: {
          body: { email: 'colleague@example.ie', name: 'Ciara Doyle', role: 'BrokerUser' },
        },
      }),
      resendInvitation: post('/api/users/:id/invitation', { answer: userView }),
      list: get('/api/users', { query: pageQuery, answer: pageOf(listedAccount) }),
      get: get('/api/users/:id', { answer: userView }),
      update: patch('/api/users/:id', {
        body: userChange,
        answer: userView,
        example: { body: { name: 'Ciara Doyle-Walsh' } },
      }),
      me: get('/api/me', { answer: meView }),
    },
  },
  audit: {
    records: {
      user: { noun: 'a user account', label: 'User account' },
    },
    actions: {
      'user.created': 'Created a user account',
      'user.updated': 'Changed a user account',
      'user.deactivated': 'Deactivated a user account',
      'user.reactivated': 'Reactivated a user account',
      'user.invitation_sent': 'Sent an invitation to set up an account',
      'user.invitation_accepted': 'Accepted an invitation and set a password',
      'user.password_reset_requested': 'Asked for a password reset link',
      'user.password_reset': 'Set a new password with a reset link',
      'user.password_changed': 'Changed their own password',
      'user.second_factor_setup_started': 'Started setting up an authenticator app',
      'user.second_factor_added': 'Set up an authenticator app as a second factor',
      'user.second_factor_removed': 'Removed their authenticator app',
      'user.recovery_codes_issued': 'Issued new recovery codes for their account',
      'user.passkey_added': 'Added a passkey to their account',
      'user.passkey_removed': 'Removed a passkey from their account',
      'user.second_factor_reset': 'Removed the second factors of an account whose holder lost them',
      'user.viewed': 'Viewed a user account',
      'user.listed': 'Listed user accounts',
    },
  },
});
