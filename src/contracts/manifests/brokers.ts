import { listedAccount, userView } from '../accounts.js';
import { brokerInput, brokerLeiInput, brokerUserInput, brokerView } from '../organisation.js';
import { pageOf, pageQuery } from '../pages.js';
import { get, patch, post, put } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The brokers module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const brokersManifest = defineManifest({
  name: 'brokers',
  routes: {
    brokers: {
      create: post('/api/brokers', {
        body: brokerInput,
        answer: brokerView,
        example: { body: { name: 'Western Pension Brokers' } },
      }),
      list: get('/api/brokers', { query: pageQuery, answer: pageOf(brokerView) }),
      get: get('/api/brokers/:brokerId', { answer: brokerView }),
      update: patch('/api/brokers/:brokerId', {
        body: brokerInput,
        answer: brokerView,
        example: { body: { name: 'Western Pension Brokers Ltd' } },
      }),
      setLei: put('/api/brokers/:brokerId/lei', {
        body: brokerLeiInput,
        answer: brokerView,
        example: { body: { lei: '635400WESTERNBRKR055' } },
      }),
      createUser: post('/api/brokers/:brokerId/users', {
        body: brokerUserInput,
        answer: userView,
        example: {
          body: {
            email: 'niamh.byrne@example.ie',
            name: 'Niamh Byrne',
            role: 'BrokerUser',
            password: 'a long enough passphrase',
          },
        },
      }),
      listUsers: get('/api/brokers/:brokerId/users', {
        query: pageQuery,
        answer: pageOf(listedAccount),
      }),
    },
  },
  audit: {
    records: {
      broker: { noun: 'a broker firm', label: 'Broker firm' },
    },
    actions: {
      'broker.created': 'Created a broker firm',
      'broker.updated': 'Changed a broker firm’s details',
      'broker.viewed': 'Viewed a broker firm',
      'broker.listed': 'Listed broker firms',
    },
  },
});
